import KVOLite
import Testing

/// A model with a plain stored `var`, a computed property and an `@Observed` property.
private final class Squad: KeyValueObservable, @unchecked Sendable {
  let observationRegistrar = ObservationRegistrar()
  @Observed var members = 3
  var nickname = "Reds"
  var totalAge: Int { members * 20 }
}

/// Errors for a key a class does not have name the fix: a plain stored property is to be
/// marked `@Observed`; a computed property is observed by typed key path, or by name once
/// declared.
@Suite("Unknown keys: the error names the fix")
struct UnknownKeyHintTests {
  @Test("observing a computed property by name says how to observe it")
  func computedByName() {
    #expect(throws: KeyValueError.unknownKeyToObserve(key: "totalAge", type: "Squad", path: "")) {
      _ = try Squad().observe("totalAge") { _ in }
    }
    let error = KeyValueError.unknownKeyToObserve(key: "totalAge", type: "Squad", path: "")
    #expect(
      error.description
        == "Squad has no key \"totalAge\"; if it is a computed property, observe it by typed key"
        + " path, which finds what its getter reads, or declare it in Squad.observableKeys as a"
        + " derived key (.derived(\"totalAge\", \\.totalAge)) to observe it by name")
  }

  @Test("a plain stored property, observed or read by name, is to be marked @Observed")
  func plainByName() throws {
    let model = Squad()
    let expected = KeyValueError.unknownKey(
      key: "nickname", type: "Squad", path: "", suggestion: nil)
    #expect(throws: expected) { _ = try model.observe("nickname") { _ in } }
    #expect(throws: expected) { _ = try model.value(forKey: "nickname") }
    #expect(
      expected.description
        == "Squad has no key \"nickname\"; Squad.nickname is a stored property that is not"
        + " @Observed: mark it @Observed to make it a key")
  }

  @Test("a close match is still suggested, and a key that is neither says only that")
  func otherUnknownKeys() {
    let model = Squad()
    #expect(
      throws: KeyValueError.unknownKey(
        key: "membres", type: "Squad", path: "", suggestion: "members")
    ) { _ = try model.observe("membres") { _ in } }
    #expect(
      KeyValueError.unknownKey(key: "zzz", type: "Squad", path: "", suggestion: nil).description
        == "Squad has no key \"zzz\"")
    #expect(throws: KeyValueError.unknownKey(key: "zzz", type: "Squad", path: "", suggestion: nil))
    {
      _ = try model.value(forKey: "zzz")
    }
  }
}
