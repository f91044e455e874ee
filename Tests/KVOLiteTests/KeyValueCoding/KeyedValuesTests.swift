import Foundation
import KVOLite
import KVOLiteTestSupport
import Testing

@Suite("Key-value coding: several keys, validation as a query")
struct KeyedValuesTests {
  @Test("validateValue checks without setting, and returns the hook's replacement")
  func validateValue() throws {
    let order = Order()
    var code: Any? = "abc"
    try order.validateValue(&code, forKeyPath: "code")
    #expect(code as? String == "ABC")
    #expect(order.code == "")
    var quantity: Any? = 0
    #expect(
      throws: KeyValueError.validationFailed(
        path: "quantity", reason: "quantity must be at least 1")
    ) {
      try order.validateValue(&quantity, forKeyPath: "quantity")
    }
    #expect(quantity as? Int == 0)
    var wrong: Any? = "seven"
    #expect(throws: KeyValueError.self) { try order.validateValue(&wrong, forKeyPath: "quantity") }
    var nothing: Any? = nil
    try order.validateValue(&nothing, forKeyPath: "note")
    #expect(nothing == nil)
    // Apple: with no validation hook, any value is valid, whatever the key.
    for key in ["rush", "itemCount", "id", "nokey", "customer.firstName"] {
      var value: Any? = "anything"
      try order.validateValue(&value, forKeyPath: key)
      #expect(value as? String == "anything")
    }
  }

  @Test("setValuesForKeys sets every key, in the order of their names, each notifying once")
  func setValuesForKeys() throws {
    let order = Order()
    var seen: [String] = []
    let tokens = try ["code", "quantity", "note", "rush"].map { key in
      try order.observe(key, options: [.new]) { change in
        seen.append("\(key)=\(change.newValue.map { "\($0 ?? "nil")" } ?? "-")")
      }
    }
    order.note = "old"
    seen = []
    try order.setValuesForKeys(["rush": true, "code": "ab", "quantity": 3, "note": NSNull()])
    #expect(seen == ["code=AB", "note=nil", "quantity=3", "rush=true"])
    #expect(order.code == "AB" && order.quantity == 3 && order.note == nil && order.rush)
    try order.setValuesForKeys([:])
    #expect(seen.count == 4)
    withExtendedLifetime(tokens) {}
  }

  @Test("setValuesForKeys is all or nothing: one bad key or value, and nothing is set or notified")
  func allOrNothing() throws {
    let order = Order()
    var notified = 0
    let token = try order.observe("code") { _ in notified += 1 }
    let failures: [([String: Any], KeyValueError)] = [
      (
        ["code": "x", "quantity": 0],
        .validationFailed(path: "quantity", reason: "quantity must be at least 1")
      ),
      (["code": "x", "rush": NSNull()], .nilForNonOptional(path: "rush", expected: "Bool")),
      (
        ["code": "x", "itemCount": 2],
        .notSettable(key: "itemCount", type: "Order", reason: "it is derived")
      ),
      (["code": "x", "id": 2], .notSettable(key: "id", type: "Order", reason: "it is read-only")),
      (
        ["code": "x", "qantity": 2],
        .unknownKey(key: "qantity", type: "Order", path: "", suggestion: "quantity")
      ),
      (
        ["code": "x", "customer.firstName": "A"],
        .unknownKey(key: "customer.firstName", type: "Order", path: "", suggestion: nil)
      ),
    ]
    for (values, error) in failures {
      #expect(throws: error) { try order.setValuesForKeys(values) }
      #expect(order.code == "" && order.quantity == 1 && !order.rush)
    }
    #expect(notified == 0)
    withExtendedLifetime(token) {}
  }

  @Test("dictionaryWithValues reads keys by name, nil as NSNull; an unknown key is an error")
  func dictionaryWithValues() throws {
    let order = Order()
    order.code = "AB"
    let values = try order.dictionaryWithValues(forKeys: [
      "code", "note", "quantity", "itemCount", "id",
    ])
    #expect(values.count == 5)
    #expect(values["code"] as? String == "AB")
    #expect(values["note"] is NSNull)
    #expect(values["quantity"] as? Int == 1)
    #expect(values["itemCount"] as? Int == 0)
    #expect(values["id"] as? Int == 7)
    #expect(try order.dictionaryWithValues(forKeys: []).isEmpty)
    #expect(
      throws: KeyValueError.unknownKey(key: "cod", type: "Order", path: "", suggestion: "code")
    ) {
      try order.dictionaryWithValues(forKeys: ["code", "cod"])
    }
  }
}
