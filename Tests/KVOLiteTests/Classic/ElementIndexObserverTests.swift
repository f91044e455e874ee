import Foundation
import KVOLite
import KVOLiteTestSupport
import Testing

private class Vehicle: KeyValueObservable, @unchecked Sendable {
  let observationRegistrar = ObservationRegistrar()
  @Observed var name = ""
}

private final class Bus: Vehicle, @unchecked Sendable {
  @Observed var seats = 40
}

/// Records what it is told: the key path, the object and the new value.
private final class Watcher: KeyValueObserver, @unchecked Sendable {
  let log = Log<String>()

  func observeValue(
    forKeyPath keyPath: String, of object: any KeyValueObservable, change: KeyValueChange<Any?>,
    context: UnsafeMutableRawPointer?
  ) {
    let name = (try? object.value(forKey: "name")).flatMap { $0 as? String } ?? "?"
    log.append("\(keyPath) of \(name): \(change.newValue.map { "\($0 ?? "nil")" } ?? "-")")
  }
}

/// Foundation's `NSArray` registration of an observer on the elements at given indexes, as
/// GNUstep's `kvoToMany` records it: the elements at the indexes report, the others do not, an
/// index out of range is an error (Foundation raises).
@Suite("Observing the elements at given indexes")
struct ElementIndexObserverTests {
  private static func fleet() -> [Bus] {
    (0..<3).map { index in
      let bus = Bus()
      bus.name = "bus\(index)"
      return bus
    }
  }

  @Test("the elements at the indexes report, each as the object observed; the others do not")
  func registersAtIndexes() throws {
    let fleet = Self.fleet()
    let watcher = Watcher()
    try fleet.addObserver(watcher, toObjectsAt: [0, 1], forKeyPath: "seats", options: [.new])
    fleet[0].seats = 1
    fleet[0].seats = 2
    fleet[1].seats = 3
    fleet[2].seats = 4
    try fleet.removeObserver(watcher, fromObjectsAt: [0], forKeyPath: "seats")
    fleet[0].seats = 5
    fleet[1].seats = 6
    try fleet.removeObserver(watcher, fromObjectsAt: [1], forKeyPath: "seats", context: nil)
    fleet[1].seats = 7
    #expect(
      watcher.log.all == [
        "seats of bus0: 1", "seats of bus0: 2", "seats of bus1: 3", "seats of bus1: 6",
      ])
  }

  @Test("with .initial, one initial notification per element")
  func initialPerElement() throws {
    let fleet = Self.fleet()
    let watcher = Watcher()
    try fleet.addObserver(
      watcher, toObjectsAt: [0, 2], forKeyPath: "seats", options: [.initial, .new])
    #expect(watcher.log.all == ["seats of bus0: 40", "seats of bus2: 40"])
    try fleet.removeObserver(watcher, fromObjectsAt: [0, 2], forKeyPath: "seats")
  }

  @Test("an index out of range throws, and nothing is registered or removed")
  func outOfRange() throws {
    let fleet = Self.fleet()
    let watcher = Watcher()
    #expect(throws: KeyValueError.indexOutOfRange(index: 4, count: 3, path: "seats")) {
      try fleet.addObserver(watcher, toObjectsAt: [0, 4], forKeyPath: "seats")
    }
    fleet[0].seats = 1
    #expect(watcher.log.all == [])
    try fleet.addObserver(watcher, toObjectsAt: [0], forKeyPath: "seats", options: [.new])
    #expect(throws: KeyValueError.indexOutOfRange(index: 3, count: 3, path: "seats")) {
      try fleet.removeObserver(watcher, fromObjectsAt: [0, 3], forKeyPath: "seats")
    }
    fleet[0].seats = 2
    #expect(watcher.log.all == ["seats of bus0: 2"])
  }

  @Test("an element that cannot be registered undoes the registrations before it")
  func failureUndoes() {
    let bus = Bus()
    bus.name = "bus"
    let plain = Vehicle()
    let vehicles: [Vehicle] = [bus, plain]
    let watcher = Watcher()
    #expect(
      throws: KeyValueError.unknownKeyToObserve(key: "seats", type: "Vehicle", path: "")
    ) {
      try vehicles.addObserver(watcher, toObjectsAt: [0, 1], forKeyPath: "seats", options: [.new])
    }
    bus.seats = 9
    #expect(watcher.log.all == [])
  }
}
