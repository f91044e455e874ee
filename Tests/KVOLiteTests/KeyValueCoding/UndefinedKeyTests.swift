import Foundation
import KVOLite
import KVOLiteTestSupport
import Testing

/// A type that answers for keys it does not declare, as Foundation subclasses do.
private final class Flexible: KeyValueObservable, @unchecked Sendable {
  let observationRegistrar = ObservationRegistrar()
  static let observableKeys: ObservableKeys<Flexible> = [
    .attribute("count", \.count),
    .attribute("name", \.name),
    .toOne("child", \.child),
  ]
  @Observed var count = 5
  @Observed var name: String? = "n"
  @Observed var child: Flexible?
  var extras: [String: Any] = [:]
  var nilKeys: [String] = []

  func value(forUndefinedKey key: String) throws(KeyValueError) -> Any? {
    guard key.hasPrefix("x") else { throw .validationFailed(path: key, reason: "no such extra") }
    return extras[key]
  }

  func setValue(_ value: Any?, forUndefinedKey key: String) throws(KeyValueError) {
    guard key.hasPrefix("x") else {
      // Declines, as the default does.
      throw .unknownKey(key: key, type: "Flexible", path: "", suggestion: nil)
    }
    extras[key] = value
  }

  func setNilValueForKey(_ key: String) throws(KeyValueError) {
    nilKeys.append(key)
    if key == "count" { count = 0 }
  }
}

@Suite("Key-value coding: the override points for undefined keys and nil")
struct UndefinedKeyTests {
  @Test(
    "the defaults keep the errors: unknown key with its path and suggestion, nil for a non-optional"
  )
  func defaults() throws {
    let order = Order()
    #expect(
      throws: KeyValueError.unknownKey(key: "cod", type: "Order", path: "", suggestion: "code")
    ) {
      try order.value(forKeyPath: "cod")
    }
    #expect(
      throws: KeyValueError.unknownKey(key: "cod", type: "Order", path: "", suggestion: "code")
    ) {
      try order.value(forUndefinedKey: "cod")
    }
    order.customer = Person()
    #expect(
      throws: KeyValueError.unknownKey(
        key: "firstNme", type: "Person", path: "customer", suggestion: "firstName")
    ) {
      try order.setValue("A", forKeyPath: "customer.firstNme")
    }
    #expect(throws: KeyValueError.nilForNonOptional(path: "rush", expected: "Bool")) {
      try order.setValue(nil, forKeyPath: "rush")
    }
    #expect(throws: KeyValueError.nilForNonOptional(path: "rush", expected: "Bool")) {
      try order.setNilValueForKey("rush")
    }
  }

  @Test("value(forUndefinedKey:) answers for undeclared keys, at the end of a path or along it")
  func valueForUndefinedKey() throws {
    let root = Flexible()
    let child = Flexible()
    root.child = child
    child.extras["x1"] = 42
    root.extras["xChild"] = child
    #expect(try root.value(forKeyPath: "child.x1") as? Int == 42)
    #expect(try root.value(forKeyPath: "xChild.x1") as? Int == 42)
    #expect(try root.value(forKeyPath: "xChild.count") as? Int == 5)
    #expect(try root.value(forKeyPath: "xMissing") == nil)
    #expect(try root.value(forKeyPath: "xMissing.count") == nil)
    #expect(throws: KeyValueError.validationFailed(path: "other", reason: "no such extra")) {
      try root.value(forKeyPath: "other")
    }
    root.child = nil
    #expect(
      throws: KeyValueError.unknownKey(key: "x1", type: "Flexible", path: "child", suggestion: nil)
    ) {
      try root.value(forKeyPath: "child.x1")
    }
  }

  @Test(
    "setValue(_:forUndefinedKey:) takes sets of undeclared keys, by value and from text; declining keeps the error"
  )
  func setValueForUndefinedKey() throws {
    let root = Flexible()
    root.child = Flexible()
    try root.setValue(7, forKeyPath: "x7")
    try root.setValue(fromText: "seven", forKeyPath: "child.x7")
    #expect(root.extras["x7"] as? Int == 7)
    #expect(root.child?.extras["x7"] as? String == "seven")
    #expect(
      throws: KeyValueError.unknownKey(
        key: "coun", type: "Flexible", path: "child", suggestion: "count")
    ) {
      try root.setValue(1, forKeyPath: "child.coun")
    }
    // The path goes on through what value(forUndefinedKey:) answers; here nil, so nothing can
    // be set at its end.
    #expect(throws: KeyValueError.nilIntermediate(path: "xa.count", key: "xa")) {
      try root.setValue(1, forKeyPath: "xa.count")
    }
    // What value(forUndefinedKey:) throws for a key it refuses is what the set throws.
    #expect(throws: KeyValueError.validationFailed(path: "ya", reason: "no such extra")) {
      try root.setValue(1, forKeyPath: "ya.count")
    }
  }

  @Test(
    "setNilValueForKey(_:) is asked for nil on a non-optional key; an optional key just takes nil")
  func setNilValueForKey() throws {
    let root = Flexible()
    root.child = Flexible()
    try root.setValue(nil, forKeyPath: "count")
    try root.setValue(nil, forKeyPath: "child.count")
    try root.setValue(nil, forKeyPath: "name")
    #expect(root.count == 0 && root.child?.count == 0 && root.name == nil)
    #expect(root.nilKeys == ["count"] && root.child?.nilKeys == ["count"])
  }

  @Test("value(forKey:) and setValue(_:forKey:) take one key, never a path")
  func singleKeys() throws {
    let object = Flexible()
    object.child = Flexible()
    #expect(try object.value(forKey: "count") as? Int == 5)
    try object.setValue(7, forKey: "count")
    #expect(object.count == 7)
    try object.setValue(nil, forKey: "count")  // nil for a non-optional: setNilValueForKey
    #expect(object.count == 0 && object.nilKeys == ["count"])

    // An undeclared name goes to the override points, even one that is a valid path.
    object.extras["x1"] = "extra"
    #expect(try object.value(forKey: "x1") as? String == "extra")
    try object.setValue(3, forKey: "x2")
    #expect(object.extras["x2"] as? Int == 3)
    #expect(throws: KeyValueError.validationFailed(path: "child.count", reason: "no such extra")) {
      try object.value(forKey: "child.count")
    }
    #expect(
      throws: KeyValueError.unknownKey(
        key: "child.count", type: "Flexible", path: "", suggestion: nil)
    ) {
      try object.setValue(1, forKey: "child.count")
    }
    #expect(object.child?.count == 5)
  }

  @Test("the default for an undeclared single key is the typed unknown-key error")
  func singleKeyDefaults() {
    let order = Order()
    #expect(throws: KeyValueError.self) { try order.value(forKey: "customer.firstName") }
    #expect(throws: KeyValueError.self) { try order.setValue("x", forKey: "notes") }
    #expect(throws: KeyValueError.self) { try order.value(forKey: "@count") }
  }
}
