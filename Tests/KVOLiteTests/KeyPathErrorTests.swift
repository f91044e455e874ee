import KVOLite
import Testing

@Suite("Key path errors")
struct KeyPathErrorTests {
  @Test(
    "malformed string key paths are rejected with the reason",
    arguments: [
      ("", "the key path is empty"),
      (".", "it has no key"),
      ("a..b", "it has an empty key between two dots"),
      (".a", "it starts with \".\""),
      ("a.", "it ends with \".\""),
      ("first name", "it contains the character U+0020"),
      ("a\tb", "it contains the character U+0009"),
    ])
  func malformed(path: String, reason: String) {
    let person = Person()
    #expect(throws: KeyValueError.malformedKeyPath(path: path, reason: reason)) {
      _ = try person.observe(path) { _ in }
    }
  }

  @Test("an unknown key names the key, the type, the path so far and a close match")
  func unknownKey() {
    let parcel = Parcel()
    let expected = KeyValueError.unknownKey(
      key: "frstName", type: "Person", path: "recipient", suggestion: "firstName")
    #expect(throws: expected) { _ = try parcel.observe("recipient.frstName") { _ in } }
    #expect(
      expected.description
        == #"Person has no key "frstName" (after "recipient"); did you mean "firstName"?"#)
  }

  @Test("an unknown key with nothing close has no suggestion")
  func unknownKeyNoSuggestion() {
    let parcel = Parcel()
    let expected = KeyValueError.unknownKey(key: "zzzzzz", type: "Parcel", path: "", suggestion: nil)
    #expect(throws: expected) { _ = try parcel.observe("zzzzzz") { _ in } }
    #expect(expected.description == #"Parcel has no key "zzzzzz""#)
  }

  @Test("a path cannot continue after an attribute")
  func throughAttribute() {
    let parcel = Parcel()
    let expected = KeyValueError.notARelationship(key: "label", type: "Parcel", role: .attribute)
    #expect(throws: expected) { _ = try parcel.observe("label.count") { _ in } }
    #expect(
      expected.description
        == #""label" of Parcel is an attribute, not a to-one relationship, so a key path cannot continue after it"#
    )
  }

  @Test("a typed key path that is not declared is rejected, never silently accepted")
  func undeclaredTyped() {
    let person = Person()
    #expect(throws: KeyValueError.undeclaredKeyPath(keyPath: "from Person to Int", type: "Person")) {
      _ = try person.observe(\.undeclared) { _, _ in }
    }
  }

  @Test("a failed registration leaves nothing behind")
  func failedRegistrationLeavesNothing() {
    let parcel = Parcel()
    _ = try? parcel.observe("recipient.address.nope") { _ in }
    #expect(parcel.observationRegistrar.triggerCount == 0)
    #expect(parcel.recipient.observationRegistrar.triggerCount == 0)
  }
}
