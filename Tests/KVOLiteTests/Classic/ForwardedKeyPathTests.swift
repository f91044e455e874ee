import Foundation
import KVOLite
import KVOLiteTestSupport
import Testing

/// An object in the middle of a key path that takes the registration of the rest of the path
/// over and passes it on to the objects it holds, as an array controller does with its arranged
/// objects (GNUstep's `keypathRegistration`, checked against Foundation).
private final class Member: KeyValueObservable, @unchecked Sendable {
  let observationRegistrar = ObservationRegistrar()
  @Observed var name: String
  init(_ name: String) { self.name = name }
}

private final class Team: KeyValueObservable, @unchecked Sendable {
  let observationRegistrar = ObservationRegistrar()
  let members: [Member]
  let registrations = Counter()
  init(_ members: [Member]) { self.members = members }

  func value(forUndefinedKey key: String) throws(KeyValueError) -> Any? {
    var values: [Any] = []
    for member in members {
      if let value = try member.value(forKey: key) { values.append(value) }
    }
    return values
  }

  func addObserver(
    _ observer: any KeyValueObserver, forKeyPath keyPath: String, options: ObservingOptions,
    context: UnsafeMutableRawPointer?
  ) throws(KeyValueError) {
    registrations.increment()
    try members.addObserver(
      observer, toObjectsAt: IndexSet(members.indices), forKeyPath: keyPath, options: options,
      context: context)
  }

  func removeObserver(_ observer: any KeyValueObserver, forKeyPath keyPath: String) {
    try? members.removeObserver(
      observer, fromObjectsAt: IndexSet(members.indices), forKeyPath: keyPath)
  }

  func removeObserver(
    _ observer: any KeyValueObserver, forKeyPath keyPath: String, context: UnsafeMutableRawPointer?
  ) {
    removeObserver(observer, forKeyPath: keyPath)
  }
}

private final class Club: KeyValueObservable, @unchecked Sendable {
  let observationRegistrar = ObservationRegistrar()
  @Observed var team: Team
  init(_ team: Team) { self.team = team }
}

/// Records the key path, the object and the count of every notification.
private final class Watcher: KeyValueObserver, @unchecked Sendable {
  let log = Log<String>()

  func observeValue(
    forKeyPath keyPath: String, of object: any KeyValueObservable, change: KeyValueChange<Any?>,
    context: UnsafeMutableRawPointer?
  ) {
    let club = object is Club ? "club" : "\(type(of: object))"
    log.append("\(keyPath) of \(club): \(change.newValue.map { "\($0 ?? "nil")" } ?? "-")")
  }
}

private class Vehicle: KeyValueObservable, @unchecked Sendable {
  let observationRegistrar = ObservationRegistrar()
  @Observed var name = ""
}

private final class Bus: Vehicle, @unchecked Sendable {
  @Observed var seats = 40
}

private final class Garage: KeyValueObservable, @unchecked Sendable {
  let observationRegistrar = ObservationRegistrar()
  @Observed var vehicle: Vehicle? = Bus()
}

/// A key path whose rest the declared types do not know is registered, from the object that
/// lacks it on, with that object's own `addObserver`, as Foundation registers nested key paths:
/// an object may take the registration over, and a relationship typed as a superclass reaches
/// the keys of the subclass it holds.
@Suite("Key paths registered on the object the declared types stop at")
struct ForwardedKeyPathTests {
  @Test("the object in the middle registers the rest: changes of what it holds report the path")
  func takeover() throws {
    let ann = Member("Ann")
    let team = Team([ann, Member("Bo")])
    let club = Club(team)
    let watcher = Watcher()
    try club.addObserver(watcher, forKeyPath: "team.name", options: [.new])
    #expect(team.registrations.count == 1)
    ann.name = "Ana"
    #expect(watcher.log.all == ["team.name of club: Ana"])
    club.removeObserver(watcher, forKeyPath: "team.name")
    ann.name = "Anne"
    #expect(watcher.log.all == ["team.name of club: Ana"])
  }

  @Test("replacing the object in the middle moves the registration, and is a change of the path")
  func replacingTheMiddle() throws {
    let first = Team([Member("Ann")])
    let club = Club(first)
    let watcher = Watcher()
    try club.addObserver(watcher, forKeyPath: "team.name", options: [.new])
    let second = Team([Member("Cy")])
    club.team = second
    first.members[0].name = "ignored"
    second.members[0].name = "Cyd"
    #expect(
      watcher.log.all == [#"team.name of club: ["Cy"]"#, "team.name of club: Cyd"])
    #expect(second.registrations.count == 1)
    club.removeObserver(watcher, forKeyPath: "team.name")
    second.members[0].name = "gone"
    #expect(watcher.log.all.count == 2)
  }

  @Test("a relationship typed as a superclass reaches the subclass's key, and follows it")
  func subclassKey() throws {
    let garage = Garage()
    let log = Log<String>()
    let token = try garage.observe("vehicle.seats", options: [.initial, .old, .new]) { change in
      let old = change.oldValue.map { "\($0 ?? "nil")" } ?? "-"
      log.append("\(old) -> \(change.newValue.map { "\($0 ?? "nil")" } ?? "-")")
    }
    let first = try #require(garage.vehicle as? Bus)
    first.seats = 12
    let second = Bus()
    garage.vehicle = second
    first.seats = 99  // Detached.
    second.seats = 50
    garage.vehicle = Vehicle()  // No seats: the path reads nil, and nothing is registered.
    garage.vehicle = nil
    garage.vehicle = first
    first.seats = 13
    #expect(
      log.all == [
        "- -> 40", "40 -> 12", "12 -> 40", "40 -> 50", "50 -> nil", "nil -> nil",
        "nil -> 99", "99 -> 13",
      ])
    _ = token
  }

  @Test("errors at registration: a key the object there lacks, or no object to ask")
  func registrationErrors() {
    let garage = Garage()
    #expect(
      throws: KeyValueError.unknownKey(
        key: "seatz", type: "Bus", path: "vehicle", suggestion: "seats")
    ) {
      try garage.observe("vehicle.seatz") { _ in }
    }
    garage.vehicle = nil
    #expect(
      throws: KeyValueError.unknownKey(
        key: "seats", type: "Vehicle", path: "vehicle", suggestion: nil)
    ) {
      try garage.observe("vehicle.seats") { _ in }
    }
  }

  @Test("ending the observation removes the registration from the object in the middle")
  func endingRemoves() throws {
    let member = Member("Ann")
    let club = Club(Team([member]))
    let counter = Counter()
    let token = try club.observe("team.name") { _ in counter.increment() }
    member.name = "A"
    token.invalidate()
    member.name = "B"
    #expect(counter.count == 1)
  }
}
