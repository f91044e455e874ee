import Foundation
import KVOLite
import KVOLiteTestSupport
import Testing

@Suite("Setting values from text")
struct TextConversionTests {
  @Test(
    "valid text is parsed as the key's type",
    arguments: [
      ("quantity", "12", "12"),
      ("quantity", "+3", "3"),
      ("rush", "yes", "true"),
      ("rush", "false", "false"),
      ("rush", "1", "true"),
      ("priority", "high", "high"),
      ("total", "12.50", "12.5"),
      ("total", "-0.25", "-0.25"),
      ("note", "hello world", "hello world"),
      ("note", "nil", "nil"),
      ("note", "", ""),
      ("code", "abc", "ABC"),
    ])
  func parses(key: String, text: String, expected: String) throws {
    let order = Order()
    try order.setValue(fromText: text, forKeyPath: key)
    let value = try order.value(forKeyPath: key)
    let shown = value.map { ($0 as? any KeyValueTextConvertible)?.keyValueText ?? "\($0)" } ?? "nil"
    #expect(shown == expected)
  }

  @Test(
    "text that does not parse is rejected, naming the expected type",
    arguments: [
      ("quantity", "1.5", "a whole number (Int)"),
      ("quantity", " 3", "a whole number (Int)"),
      ("quantity", "99999999999999999999", "a whole number (Int)"),
      ("quantity", "", "a whole number (Int)"),
      ("rush", "maybe", "true or false"),
      ("priority", "urgent", "a Priority"),
      ("total", "12,50", "a number (Decimal)"),
      ("total", "1.5e", "a number (Decimal)"),
    ])
  func rejects(key: String, text: String, expected: String) {
    let order = Order()
    #expect(throws: KeyValueError.unparsableText(text: text, path: key, expected: expected)) {
      try order.setValue(fromText: text, forKeyPath: key)
    }
    #expect(
      order.quantity == 1 && order.rush == false && order.priority == .normal && order.total == 0)
  }

  @Test(
    "floating-point text that would not survive is refused; inf, nan and -0 spell themselves",
    arguments: [
      ("1e400", nil), ("-1e400", nil), ("1e-400", nil), ("0x1p-2000", nil), ("1e308", 1e308),
      ("inf", .infinity), ("-infinity", -.infinity), ("0e999", 0), ("-0", -0.0),
      ("5e-324", .leastNonzeroMagnitude),
    ] as [(String, Double?)])
  func floatingPointSurvives(text: String, expected: Double?) {
    #expect(Double(keyValueText: text)?.bitPattern == expected?.bitPattern)
    #expect(Double(keyValueText: "nan")?.isNaN == true)
    #expect(Float(keyValueText: "1e39") == nil && Float(keyValueText: "1e-50") == nil)
    #expect(Float(keyValueText: "3e38") == 3e38)
    #expect(Decimal(keyValueText: "1e400") == nil && Decimal(keyValueText: "0.000") == 0)
  }

  @Test("a value type without a text form cannot be set from text")
  func notTextConvertible() {
    let order = Order()
    let expected = KeyValueError.notTextConvertible(path: "shipping", type: "Shipping")
    #expect(throws: expected) { try order.setValue(fromText: "3", forKeyPath: "shipping") }
    #expect(expected.description == #""shipping" holds Shipping, which cannot be set from text"#)
  }

  @Test("text through a chain reaches the related object")
  func textThroughChain() throws {
    let order = Order()
    order.customer = Person()
    try order.setValue(fromText: "42", forKeyPath: "customer.age")
    try order.setValue(fromText: "Al", forKeyPath: "customer.nickname")
    #expect(order.customer?.age == 42)
    #expect(order.customer?.nickname == "Al")
  }

  @Test("the message for unparsable text names the path, the type and the text")
  func unparsableMessage() {
    let error = KeyValueError.unparsableText(
      text: "x", path: "quantity", expected: "a whole number (Int)")
    #expect(error.description == #""quantity" expects a whole number (Int), and "x" is not one"#)
  }

  @Test("text forms round-trip")
  func roundTrip() {
    #expect(Int(keyValueText: 42.keyValueText) == 42)
    #expect(Double(keyValueText: 2.5.keyValueText) == 2.5)
    #expect(Decimal(keyValueText: Decimal(string: "1.25")!.keyValueText) == Decimal(string: "1.25"))
    #expect(String?.none.keyValueText == "nil")
    #expect(Priority(keyValueText: Priority.high.keyValueText) == .high)
    #expect(UInt8(keyValueText: "256") == nil)
    #expect(Int8(keyValueText: "-128") == -128)
  }
}
