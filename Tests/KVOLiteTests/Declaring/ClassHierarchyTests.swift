import Foundation
import KVOLite
import KVOLiteTestSupport
import Testing

/// A class meant to be subclassed: not final, its declarations a `class var`.
private class Vehicle: KeyValueObservable, @unchecked Sendable {
  let observationRegistrar = ObservationRegistrar()
  class var observableKeys: ObservableKeys<Vehicle> {
    [.derived("label", \.label, affectedBy: ["name", "wheels"])]
  }
  @Observed var name = ""
  @Observed var wheels = 4
  @Observed var owner = Author()
  var label: String { "\(name) (\(wheels))" }
}

/// A subclass that adds a key, overrides `label` and what affects it (declared with its own key
/// path, which the override's typed key paths are), and adds a derived key of its own.
private final class Truck: Vehicle, @unchecked Sendable {
  override class var observableKeys: ObservableKeys<Vehicle> {
    super.observableKeys + [
      .derived("label", \Truck.label, affectedBy: ["name", "wheels", "payload"]),
      .derived("summary", \Truck.summary, affectedBy: ["label"]),
    ]
  }
  @Observed var payload = 0
  override var label: String { "\(name) (\(wheels)), \(payload) kg" }
  var summary: String { "Truck \(label)" }
}

/// A subclass that declares nothing: it inherits the declarations.
private final class Bike: Vehicle, @unchecked Sendable {
  @Observed var bell = true
}

/// A generic base class and its subclass: key paths made in generic code carry the generic
/// parameters, which key paths made in concrete code do not.
private class Cell<Value>: KeyValueObservable, @unchecked Sendable {
  let observationRegistrar = ObservationRegistrar()
  @Observed var value: Value
  init(_ value: Value) { self.value = value }
}

private final class TaggedCell<Value>: Cell<Value>, @unchecked Sendable {
  @Observed var tag = ""
}

/// Observes `cell`'s inherited `value` with a key path made in generic code.
private func observeValue<Value>(of cell: TaggedCell<Value>, _ counter: Counter)
  -> ObservationToken
{
  cell.observe(\.value) { _, _ in counter.increment() }
}

/// Class hierarchies work as in Foundation: a subclass inherits its superclass's keys and adds
/// its own, and paths to a superclass key work on a subclass instance.
@Suite("Class hierarchies")
struct ClassHierarchyTests {
  @Test("a subclass's keys are its superclass's, in their places, then its own")
  func keys() {
    #expect(Vehicle.allObservableKeys.keys.map(\.name) == ["name", "wheels", "owner", "label"])
    #expect(
      Truck.allObservableKeys.keys.map(\.name) == [
        "name", "wheels", "owner", "label", "payload", "summary",
      ])
    #expect(
      Bike.allObservableKeys.keys.map(\.name) == ["name", "wheels", "owner", "label", "bell"])
  }

  @Test("typed key paths to a superclass key work from the subclass and from the superclass")
  func typedPathsToSuperclassKeys() {
    let truck = Truck()
    let log = Log<String>()
    let fromSubclass = truck.observe(\.name, options: [.new]) { _, change in
      log.append("Truck.name \(change.newValue!)")
    }
    let vehicle: Vehicle = truck
    let fromSuperclass = vehicle.observe(\.name, options: [.new]) { _, change in
      log.append("Vehicle.name \(change.newValue!)")
    }
    let owner = truck.observe(\.owner.name, options: [.new]) { _, change in
      log.append("owner.name \(change.newValue!)")
    }
    truck.name = "Hauler"
    truck.owner.name = "Ann"
    #expect(log.all == ["Truck.name Hauler", "Vehicle.name Hauler", "owner.name Ann"])
    _ = (fromSubclass, fromSuperclass, owner)
  }

  @Test("string key paths and key-value coding reach superclass and subclass keys alike")
  func stringsAndCoding() throws {
    let truck = Truck()
    let counter = Counter()
    let token = try truck.observe("owner.name") { _ in counter.increment() }
    try truck.setValue("Rig", forKey: "name")
    try truck.setValue(fromText: "12", forKeyPath: "payload")
    try truck.setValue("Bo", forKeyPath: "owner.name")
    #expect(try truck.value(forKeyPath: "label") as? String == "Rig (4), 12 kg")
    #expect(try truck.value(forKeyPath: "summary") as? String == "Truck Rig (4), 12 kg")
    #expect(counter.count == 1)
    _ = token
  }

  @Test("a subclass changes what affects a derived key, whoever observes it and however")
  func overriddenDependencies() throws {
    let truck = Truck()
    let log = Log<String>()
    let typed = truck.observe(\.label, options: [.new]) { _, change in
      log.append("label \(change.newValue!)")
    }
    let vehicle: Vehicle = truck
    let asVehicle = vehicle.observe(\.label) { _, _ in log.append("Vehicle.label") }
    let summary = truck.observe(\.summary, options: [.new]) { _, change in
      log.append("summary \(change.newValue!)")
    }
    truck.payload = 500
    #expect(
      log.all == [
        "label  (4), 500 kg", "Vehicle.label", "summary Truck  (4), 500 kg",
      ])
    // A plain vehicle keeps its own dependencies.
    let plain = Vehicle()
    let plainLog = Log<String>()
    let plainToken = try plain.observe("label", options: [.new]) { change in
      plainLog.append("label \(change.newValue! ?? "nil")")
    }
    plain.wheels = 2
    #expect(plainLog.all == ["label  (2)"])
    _ = (typed, asVehicle, summary, plainToken)
  }

  @Test("a subclass that declares nothing inherits its superclass's declarations")
  func inheritedDeclarations() {
    let bike = Bike()
    let counter = Counter()
    let token = bike.observe(\.label) { _, _ in counter.increment() }
    bike.wheels = 2
    bike.bell = false
    #expect(counter.count == 1)
    _ = token
  }

  @Test("the keys of an object's class, asked through a superclass's type, are its own class's")
  func dynamicClass() {
    let vehicle: Vehicle = Truck()
    #expect(type(of: vehicle).allObservableKeys.keys.map(\.name).last == "summary")
  }

  @Test(
    "generic classes: a superclass key observed from the subclass, in generic and concrete code")
  func genericHierarchy() {
    let cell = TaggedCell(1)
    let counter = Counter()
    let generic = observeValue(of: cell, counter)
    let concrete = cell.observe(\.value) { _, _ in counter.increment() }
    cell.value = 2
    cell.tag = "x"
    #expect(counter.count == 2)
    _ = (generic, concrete)
  }
}
