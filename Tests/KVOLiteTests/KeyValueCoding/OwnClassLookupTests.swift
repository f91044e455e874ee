import KVOLite
import KVOLiteTestSupport
import Testing

private class Vehicle: KeyValueObservable, @unchecked Sendable {
  let observationRegistrar = ObservationRegistrar()
  @Observed var name = ""
}

private final class Bus: Vehicle, @unchecked Sendable {
  @Observed var seats = 40
  @Observed var driver = Vehicle()
  @Observed var riders: [Vehicle] = []
}

private final class Car: Vehicle, @unchecked Sendable {
  @Observed var doors = 4
}

/// Relationships typed as the superclass.
private final class Garage: KeyValueObservable, @unchecked Sendable {
  let observationRegistrar = ObservationRegistrar()
  @Observed var vehicle: Vehicle = Bus()
  @Observed var spare: Vehicle? = nil
  @Observed var fleet: [Vehicle] = []
}

/// String key paths look each key up on the class of the object the path has reached, as
/// Foundation does: a relationship typed as a superclass reaches the keys of the subclass it
/// holds, and an object that lacks the key gets the unknown-key error, naming its class.
@Suite("Key lookup on the object's own class")
struct OwnClassLookupTests {
  @Test("a to-one relationship typed as the superclass reaches the subclass's keys")
  func toOneReachesSubclassKeys() throws {
    let garage = Garage()
    #expect(try garage.value(forKeyPath: "vehicle.seats") as? Int == 40)
    #expect(try garage.value(forKeyPath: "vehicle.name") as? String == "")
    try garage.setValue(52, forKeyPath: "vehicle.seats")
    try garage.setValue(fromText: "Night bus", forKeyPath: "vehicle.name")
    try garage.setValue(fromText: "Ann", forKeyPath: "vehicle.driver.name")
    let bus = try #require(garage.vehicle as? Bus)
    #expect(bus.seats == 52)
    #expect(bus.name == "Night bus")
    #expect(bus.driver.name == "Ann")
    #expect(try garage.value(forKeyPath: "vehicle.driver.name") as? String == "Ann")
  }

  @Test("to-many mutations reach the subclass's relationship; errors name the whole path")
  func toManyMutation() throws {
    let garage = Garage()
    let bus = try #require(garage.vehicle as? Bus)
    let log = Log<String>()
    let token = bus.observe(\.riders, options: [.new]) { _, change in
      log.append("\(change.kind) \(Array(change.indexes ?? []))")
    }
    try garage.mutateToMany(.insertion, forKeyPath: "vehicle.riders", at: [0], elements: [Car()])
    #expect(bus.riders.count == 1)
    #expect(
      throws: KeyValueError.indexOutOfRange(index: 3, count: 1, path: "vehicle.riders")
    ) {
      try garage.mutateToMany(.removal, forKeyPath: "vehicle.riders", at: [3])
    }
    #expect(
      throws: KeyValueError.typeMismatch(path: "vehicle.seats", expected: "Int", actual: "String")
    ) {
      try garage.setValue("many", forKeyPath: "vehicle.seats")
    }
    #expect(log.all == ["insertion [0]"])
    _ = token
  }

  @Test("a set through a subclass's key notifies its observers once")
  func setNotifiesOnce() throws {
    let garage = Garage()
    let bus = try #require(garage.vehicle as? Bus)
    let log = Log<Int>()
    let token = bus.observe(\.seats, options: [.new]) { _, change in log.append(change.newValue!) }
    try garage.setValue(12, forKeyPath: "vehicle.seats")
    #expect(log.all == [12])
    _ = token
  }

  @Test("an object that lacks the key gets the unknown-key error, naming its own class")
  func lackingObjectGetsUnknownKey() throws {
    let garage = Garage()
    garage.vehicle = Car()
    #expect(
      throws: KeyValueError.unknownKey(key: "seats", type: "Car", path: "vehicle", suggestion: nil)
    ) {
      try garage.value(forKeyPath: "vehicle.seats")
    }
    #expect(
      throws: KeyValueError.unknownKey(key: "seats", type: "Car", path: "vehicle", suggestion: nil)
    ) {
      try garage.setValue(3, forKeyPath: "vehicle.seats")
    }
    #expect(
      throws: KeyValueError.unknownKey(
        key: "door", type: "Car", path: "vehicle", suggestion: "doors")
    ) {
      try garage.setValue(fromText: "3", forKeyPath: "vehicle.door")
    }
    garage.vehicle = Bus()
    #expect(
      throws: KeyValueError.unknownKey(
        key: "seatz", type: "Bus", path: "vehicle", suggestion: "seats")
    ) {
      try garage.value(forKeyPath: "vehicle.seatz")
    }
  }

  @Test("a nil relationship leaves no class to ask: the superclass's error stands")
  func nilRelationship() throws {
    let garage = Garage()
    #expect(
      throws: KeyValueError.unknownKey(
        key: "seats", type: "Vehicle", path: "spare", suggestion: nil)
    ) {
      try garage.value(forKeyPath: "spare.seats")
    }
    garage.spare = Bus()
    #expect(try garage.value(forKeyPath: "spare.seats") as? Int == 40)
  }

  @Test("collection operators and indexes reach the keys of each element's class")
  func operatorsAndIndexes() throws {
    let garage = Garage()
    let small = Bus()
    small.seats = 12
    garage.fleet = [Bus(), small]
    #expect(try garage.value(forKeyPath: "fleet.@sum.seats") as? Int == 52)
    #expect(try garage.value(forKeyPath: "fleet.@max.seats") as? Int == 40)
    #expect(try garage.value(forKeyPath: "fleet.@unionOfObjects.seats") as? [Int] == [40, 12])
    #expect(try garage.value(forKeyPath: "fleet.1.seats") as? Int == 12)
    try garage.setValue(20, forKeyPath: "fleet.1.seats")
    #expect(small.seats == 20)
    garage.fleet.append(Car())
    #expect(
      throws: KeyValueError.unknownKey(
        key: "seats", type: "Car", path: "fleet.@sum", suggestion: nil)
    ) {
      try garage.value(forKeyPath: "fleet.@sum.seats")
    }
    #expect(try garage.value(forKeyPath: "fleet.@count") as? Int == 3)
  }
}
