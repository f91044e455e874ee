import KVOLite
import KVOLiteTestSupport
import Testing

/// A class meant to be subclassed, declaring nothing.
private class Vehicle: KeyValueObservable, @unchecked Sendable {
  let observationRegistrar = ObservationRegistrar()
  @Observed var name = ""
  @Observed var wheels = 4
}

/// Overrides with a `didSet`, a clamping setter and nothing else.
private final class Car: Vehicle, @unchecked Sendable {
  let log = Log<String>()
  override var name: String {
    didSet { log.append("didSet \(name)") }
  }
  override var wheels: Int {
    get { super.wheels }
    set { super.wheels = max(0, newValue) }
  }
}

/// Overrides the getter.
private final class Shouting: Vehicle, @unchecked Sendable {
  override var name: String {
    get { super.name.uppercased() }
    set { super.name = newValue }
  }
}

/// A class whose own `@Observed` property has a `didSet`.
private final class Thermostat: KeyValueObservable, @unchecked Sendable {
  let observationRegistrar = ObservationRegistrar()
  let log = Log<String>()
  @Observed var target = 20 {
    didSet { log.append("target \(target)") }
  }
}

/// A class whose property only a typed key path given to `observe` reads first.
private final class Dimmer: KeyValueObservable, @unchecked Sendable {
  let observationRegistrar = ObservationRegistrar()
  let log = Log<String>()
  @Observed var level = 0 {
    didSet { log.append("level \(level)") }
  }
}

/// A class whose properties no test reads through their accessors before key-value coding
/// uses them: nothing has handed their key paths over.
private class Untouched: KeyValueObservable, @unchecked Sendable {
  let observationRegistrar = ObservationRegistrar()
  @Observed var name = ""
}

private final class UntouchedCar: Untouched, @unchecked Sendable {
  let log = Log<String>()
  override var name: String {
    didSet { log.append("didSet \(name)") }
  }
}

/// Key-value coding goes through the property's accessors, as Foundation's does, wherever the
/// property's key path is known: a subclass's overriding getter, setter or `didSet` runs, and so
/// does the class's own `didSet` on an `@Observed` property.
@Suite("Key-value coding through the accessors")
struct AccessorTests {
  @Test("setValue(_:forKey:) and setValue(fromText:forKeyPath:) run an overriding didSet")
  func overridingDidSet() throws {
    let car = Car()
    _ = car.name  // The accessors hand the key path over.
    try car.setValue("kvc", forKey: "name")
    try car.setValue(fromText: "text", forKeyPath: "name")
    try car.setValue("path", forKeyPath: "name")
    try car.setValuesForKeys(["name": "keys"])
    #expect(car.log.all == ["didSet kvc", "didSet text", "didSet path", "didSet keys"])
    #expect(car.name == "keys")
  }

  @Test("the key path read on one object serves every object of the class")
  func keyPathServesEveryObject() throws {
    _ = Car().name
    let car = Car()
    try car.setValue("kvc", forKey: "name")
    #expect(car.log.all == ["didSet kvc"])
  }

  @Test("an overriding setter that clamps is called: -5 wheels is stored as 0")
  func clampingSetter() throws {
    let car = Car()
    _ = car.wheels
    try car.setValue(-5, forKey: "wheels")
    #expect(car.wheels == 0)
    try car.setValue(fromText: "-3", forKeyPath: "wheels")
    #expect(car.wheels == 0)
    try car.setValue(6, forKey: "wheels")
    #expect(car.wheels == 6)
  }

  @Test("an overriding getter is what value(forKey:) and value(forKeyPath:) read")
  func overridingGetter() throws {
    let shouting = Shouting()
    shouting.name = "quiet"
    #expect(shouting.name == "QUIET")  // The accessors hand the key path over.
    #expect(try shouting.value(forKey: "name") as? String == "QUIET")
    #expect(try shouting.value(forKeyPath: "name") as? String == "QUIET")
    #expect(try shouting.dictionaryWithValues(forKeys: ["name"])["name"] as? String == "QUIET")
  }

  @Test("a string observation delivers what an overriding getter returns, old and new")
  func stringObservationReadsTheGetter() throws {
    let shouting = Shouting()
    shouting.name = "a"
    _ = shouting.name
    let log = Log<String>()
    let token = try shouting.observe("name", options: [.initial, .old, .new]) { change in
      log.append("\(change.oldValue.map { "\($0 ?? "nil")" } ?? "-") \(change.newValue!!)")
    }
    shouting.name = "b"
    try shouting.setValue("c", forKey: "name")
    #expect(log.all == ["- A", "A B", "B C"])
    _ = token
  }

  @Test("a class's own didSet on an @Observed property runs for key-value coding")
  func ownDidSet() throws {
    let thermostat = Thermostat()
    _ = thermostat.target
    try thermostat.setValue(22, forKey: "target")
    try thermostat.setValue(fromText: "23", forKeyPath: "target")
    #expect(thermostat.log.all == ["target 22", "target 23"])
  }

  @Test("a set through key-value coding still notifies exactly once, through the override")
  func notifiesOnce() throws {
    let car = Car()
    _ = car.name
    let log = Log<String>()
    let vehicle: Vehicle = car
    let token = vehicle.observe(\.wheels, options: [.new]) { _, change in
      log.append("wheels \(change.newValue!)")
    }
    let byName = try car.observe("name", options: [.new]) { change in
      log.append("name \(change.newValue!!)")
    }
    try car.setValue(-1, forKey: "wheels")
    try car.setValue("x", forKey: "name")
    #expect(log.all == ["wheels 0", "name x"])
    #expect(car.log.all == ["didSet x"])
    _ = (token, byName)
  }

  @Test("a typed key path given to an API hands the key path over")
  func typedAPIHandsOver() throws {
    let dimmer = Dimmer()
    let token = dimmer.observe(\.level) { _, _ in }
    try dimmer.setValue(3, forKey: "level")
    #expect(dimmer.log.all == ["level 3"])
    _ = token
  }

  @Test("a typed observation of a superclass's key on a subclass delivers its getter's values")
  func typedObservationReadsTheGetter() {
    let shouting = Shouting()
    shouting.name = "a"
    let vehicle: Vehicle = shouting
    let log = Log<String>()
    let token = vehicle.observe(\.name, options: [.initial, .old, .new]) { _, change in
      log.append("\(change.oldValue ?? "-") \(change.newValue!)")
    }
    shouting.name = "b"
    #expect(log.all == ["- A", "A B"])
    _ = token
  }

  @Test("before any accessor of the property has run, key-value coding writes the storage")
  func storageWhileUnknown() throws {
    let car = UntouchedCar()
    try car.setValue("kvc", forKey: "name")
    #expect(car.log.all == [])
    #expect(car.name == "kvc")
    // The read above handed the key path over.
    try car.setValue("later", forKey: "name")
    #expect(car.log.all == ["didSet later"])
  }
}
