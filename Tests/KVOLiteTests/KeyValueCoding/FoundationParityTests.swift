import Foundation
import KVOLite
import KVOLiteTestSupport
import Testing

/// A type with numbers of every kind, and override points that record what they were given.
private final class Gauge: KeyValueObservable, @unchecked Sendable {
  let observationRegistrar = ObservationRegistrar()
  static let observableKeys: ObservableKeys<Gauge> = [
    .attribute("count", \.count),
    .attribute("weight", \.weight),
    .attribute("ratio", \.ratio),
    .attribute("price", \.price),
    .attribute("enabled", \.enabled),
    .attribute("level", \.level),
    .attribute("limit", \.limit),
    .attribute("label", \.label, validate: { $0.trimmingCharacters(in: .whitespaces) }),
  ]
  @Observed var count = 0
  @Observed var weight = 0.0
  @Observed var ratio: Float = 0
  @Observed var price: Decimal = 0
  @Observed var enabled = false
  @Observed var level: UInt8 = 0
  @Observed var limit: Double? = nil
  @Observed var label = ""
  var extras: [String: Any?] = [:]
  var nilKeys: [String] = []
  var child: Gauge?

  func value(forUndefinedKey key: String) throws(KeyValueError) -> Any? {
    if key == "child" { return child }
    guard let value = extras[key] else { throw Gauge.undefined(key) }
    return value
  }

  func setValue(_ value: Any?, forUndefinedKey key: String) throws(KeyValueError) {
    guard key.hasPrefix("x") else { throw Gauge.undefined(key) }
    extras[key] = value
  }

  func setNilValueForKey(_ key: String) throws(KeyValueError) {
    nilKeys.append(key)
    if key == "count" {
      count = -1
    } else {
      throw .nilForNonOptional(path: key, expected: "a value")
    }
  }

  static func undefined(_ key: String) -> KeyValueError {
    .unknownKey(key: key, type: "Gauge", path: "", suggestion: nil)
  }
}

@Suite("Key-value coding as Foundation does it")
struct FoundationParityTests {
  @Test(
    "setValuesForKeys calls setValue(_:forUndefinedKey:) for an undeclared key and setNilValueForKey(_:) for NSNull on a non-optional"
  )
  func setValuesForKeysUsesTheOverridePoints() throws {
    let gauge = Gauge()
    try gauge.setValuesForKeys(["count": NSNull(), "xtra": 5, "weight": 2.5, "limit": NSNull()])
    #expect(gauge.count == -1 && gauge.nilKeys == ["count"])
    #expect(gauge.extras["xtra"] as? Int == 5)
    #expect(gauge.weight == 2.5 && gauge.limit == nil)
  }

  @Test(
    "setValuesForKeys stays all or nothing: a refused value, or an override point that throws, leaves every declared key as it was"
  )
  func setValuesForKeysAllOrNothing() {
    let gauge = Gauge()
    #expect(throws: KeyValueError.unknownKey(key: "nope", type: "Gauge", path: "", suggestion: nil))
    {
      try gauge.setValuesForKeys(["weight": 1.5, "nope": 1])
    }
    #expect(throws: KeyValueError.nilForNonOptional(path: "enabled", expected: "a value")) {
      try gauge.setValuesForKeys(["weight": 1.5, "enabled": NSNull()])
    }
    #expect(
      throws: KeyValueError.typeMismatch(path: "weight", expected: "Double", actual: "String")
    ) {
      try gauge.setValuesForKeys(["weight": "heavy", "xtra": 1])
    }
    #expect(gauge.weight == 0 && gauge.extras.isEmpty)
  }

  @Test("dictionaryWithValues asks value(forUndefinedKey:) for an undeclared key")
  func dictionaryWithValuesUsesTheOverridePoint() throws {
    let gauge = Gauge()
    gauge.extras = ["xtra": "x", "empty": nil]
    let values = try gauge.dictionaryWithValues(forKeys: ["count", "xtra", "empty", "limit"])
    #expect(values["count"] as? Int == 0 && values["xtra"] as? String == "x")
    #expect(values["empty"] is NSNull && values["limit"] is NSNull)
    #expect(throws: Gauge.undefined("nope")) { try gauge.dictionaryWithValues(forKeys: ["nope"]) }
  }

  @Test(
    "validateValue succeeds regardless of the value where no validator is declared; a declared one runs and may replace it"
  )
  func validation() throws {
    let gauge = Gauge()
    var value: Any? = "not a number"
    try gauge.validateValue(&value, forKey: "count")
    try gauge.validateValue(&value, forKey: "undeclared")
    try gauge.validateValue(&value, forKeyPath: "child.count")  // nil on the way: nothing to check
    #expect(value as? String == "not a number")
    var label: Any? = "  padded  "
    try gauge.validateValue(&label, forKey: "label")
    #expect(label as? String == "padded")
    gauge.child = Gauge()
    var nested: Any? = " x "
    try gauge.validateValue(&nested, forKeyPath: "child.label")
    #expect(nested as? String == "x")
    var wrong: Any? = 5
    #expect(throws: KeyValueError.typeMismatch(path: "label", expected: "String", actual: "Int")) {
      try gauge.validateValue(&wrong, forKey: "label")
    }
  }

  @Test(
    "setValue(_:forKeyPath:) continues through a key that value(forUndefinedKey:) answers, as reading does"
  )
  func setThroughAnUndefinedKey() throws {
    let gauge = Gauge()
    let child = Gauge()
    gauge.child = child
    #expect(try gauge.value(forKeyPath: "child.count") as? Int == 0)
    try gauge.setValue(4, forKeyPath: "child.count")
    try gauge.setValue(fromText: "2.5", forKeyPath: "child.weight")
    #expect(child.count == 4 && child.weight == 2.5)
    gauge.child = nil
    #expect(throws: KeyValueError.nilIntermediate(path: "child.count", key: "child")) {
      try gauge.setValue(4, forKeyPath: "child.count")
    }
    gauge.extras["xnum"] = 3
    #expect(throws: KeyValueError.notARelationship(key: "xnum", type: "Gauge", role: .attribute)) {
      try gauge.setValue(4, forKeyPath: "xnum.count")
    }
  }

  @Test("numbers convert between Int, Double, Float, Decimal and Bool where the value survives")
  func numberConversions() throws {
    let gauge = Gauge()
    try gauge.setValue(8, forKey: "weight")
    #expect(gauge.weight == 8)
    try gauge.setValue(8.0, forKey: "count")
    #expect(gauge.count == 8)
    try gauge.setValue(Float(1.5), forKey: "weight")
    #expect(gauge.weight == 1.5)
    try gauge.setValue(0.1, forKey: "ratio")
    #expect(gauge.ratio == Float(0.1))
    try gauge.setValue(3, forKey: "price")
    #expect(gauge.price == 3)
    try gauge.setValue(2.25, forKey: "price")
    #expect(gauge.price == Decimal(string: "2.25"))
    try gauge.setValue(Decimal(12), forKey: "count")
    #expect(gauge.count == 12)
    try gauge.setValue(Decimal(string: "0.5")!, forKey: "weight")
    #expect(gauge.weight == 0.5)
    try gauge.setValue(1, forKey: "enabled")
    #expect(gauge.enabled)
    try gauge.setValue(true, forKey: "count")
    #expect(gauge.count == 1)
    try gauge.setValue(255, forKey: "level")
    #expect(gauge.level == 255)
    try gauge.setValue(7, forKey: "limit")
    #expect(gauge.limit == 7)
    try gauge.setValue(-0.0, forKey: "count")
    #expect(gauge.count == 0)
  }

  @Test(
    "a number that would lose its value is refused with what was expected, and nothing is set",
    arguments: [
      ("count", 8.5 as any Sendable, "Int"), ("count", Double.nan as any Sendable, "Int"),
      ("count", 1e308 as any Sendable, "Int"),
      ("count", Decimal(string: "2.5")! as any Sendable, "Int"),
      ("level", 300 as any Sendable, "UInt8"), ("level", -1 as any Sendable, "UInt8"),
      ("ratio", 1e308 as any Sendable, "Float"), ("enabled", 2 as any Sendable, "Bool"),
      ("enabled", 0.5 as any Sendable, "Bool"),
      ("price", Double.infinity as any Sendable, "Decimal"),
      ("weight", Int.max as any Sendable, "Double"),
      ("price", 1e300 as any Sendable, "Decimal"), ("price", 1e-300 as any Sendable, "Decimal"),
      ("ratio", 1e-50 as any Sendable, "Float"),
      ("ratio", Decimal(string: "1e100")! as any Sendable, "Float"),
    ])
  func lossyNumbers(key: String, value: any Sendable, expected: String) {
    let gauge = Gauge()
    #expect(
      throws: KeyValueError.notRepresentable(
        path: key, value: String(describing: value), expected: expected)
    ) { try gauge.setValue(value, forKey: key) }
    #expect(gauge.count == 0 && gauge.level == 0 && gauge.ratio == 0 && !gauge.enabled)
    #expect(gauge.price == 0 && gauge.weight == 0)
  }

  @Test("a value that is not a number is still a type mismatch")
  func notANumber() {
    #expect(throws: KeyValueError.typeMismatch(path: "count", expected: "Int", actual: "String")) {
      try Gauge().setValue("8", forKey: "count")
    }
  }
}
