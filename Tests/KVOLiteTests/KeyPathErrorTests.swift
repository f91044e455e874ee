import KVOLite
import KVOLiteTestSupport
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

  @Test(
    "suggestions: a typo first, then a unique start of a name, then the letters in order",
    arguments: [
      ("recip", ["recipient", "sender", "contents"], "recipient"),
      ("RECIP", ["recipient", "recipientNotes"], "recipient"),
      ("frst", ["firstName", "lastName", "fullName"], "firstName"),
      ("postal", ["postalAddress", "postalCode"], "postalCode"),
      ("lastNme", ["firstName", "lastName"], "lastName"),
      ("nme", ["firstName", "age"], "age"),
      ("xyz", ["firstName", "lastName"], nil),
      ("rst", ["firstName"], nil),
      ("", ["firstName"], nil),
    ] as [(String, [String], String?)])
  func suggestions(name: String, candidates: [String], expected: String?) {
    #expect(Suggestion.closest(to: name, among: candidates) == expected)
  }

  @Test("a suggestion for a very long name costs what the candidates cost, not the name")
  func longNameSuggestion() {
    // Edit distances against a 100,000-character name would take minutes; skipping the
    // candidates whose length is out of reach takes none.
    let long = String(repeating: "x", count: 100_000)
    #expect(Suggestion.closest(to: long, among: ["firstName", "lastName", "fullName"]) == nil)
    #expect(Suggestion.closest(to: "firstNamexx", among: ["firstName", "x"]) == "firstName")
  }

  @Test("an unknown key with nothing close has no suggestion")
  func unknownKeyNoSuggestion() {
    let parcel = Parcel()
    let expected = KeyValueError.unknownKey(
      key: "zzzzzz", type: "Parcel", path: "", suggestion: nil)
    #expect(throws: expected) { _ = try parcel.value(forKey: "zzzzzz") }
    #expect(expected.description == #"Parcel has no key "zzzzzz""#)
    // Observed by name, it may be a computed property: the error says how to observe one.
    #expect(throws: KeyValueError.unknownKeyToObserve(key: "zzzzzz", type: "Parcel", path: "")) {
      _ = try parcel.observe("zzzzzz") { _ in }
    }
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

  @Test("a declared key that is not @Observed is rejected by string key path")
  func notObservable() {
    let parcel = Parcel()
    let expected = KeyValueError.notObservable(key: "plain", type: "Person")
    #expect(throws: expected) { _ = try parcel.observe("recipient.plain") { _ in } }
    #expect(parcel.observationRegistrar.triggerCount == 0)
    #expect(parcel.recipient.observationRegistrar.triggerCount == 0)
    #expect(
      expected.description
        == #""plain" of Person is not an @Observed property, so it never notifies: mark it @Observed (or declare it with notifiesAutomatically: false and notify manually, or as a derived key)"#
    )
  }

  @Test("a computed key declared as manually notified can be observed and notified by hand")
  func computedManualKey() throws {
    let person = Person(firstName: "ann")
    let log = Log<String>()
    let token = person.observe(\.shouting, options: [.old, .new]) { _, change in
      log.append("\(change.oldValue!) -> \(change.newValue!)")
    }
    person.willChangeValue(for: \.shouting)
    person.firstName = "bob"
    person.didChangeValue(for: \.shouting)
    #expect(log.all == ["ANN -> BOB"])
    _ = token
  }

  @Test("a computed key that reads another property never takes that property's storage")
  func computedKeyDoesNotTakeStorage() {
    // A type of its own, so that the first key probed is the computed one.
    let echo = Echo()
    let shouted = Counter()
    let named = Counter()
    let manual = echo.observe(\.shout) { _, _ in shouted.increment() }
    let stored = echo.observe(\.name) { _, _ in named.increment() }
    echo.name = "ann"
    #expect(named.count == 1)
    #expect(shouted.count == 0)
    _ = (manual, stored)
  }

  @Test("a failed registration leaves nothing behind")
  func failedRegistrationLeavesNothing() {
    let parcel = Parcel()
    _ = try? parcel.observe("recipient.address.nope") { _ in }
    #expect(parcel.observationRegistrar.triggerCount == 0)
    #expect(parcel.recipient.observationRegistrar.triggerCount == 0)
  }

  @Test(
    "observing through a to-many relationship by index, or a key of the elements that does not notify, is rejected at registration"
  )
  func observeThroughToMany() {
    let order = Order()
    order.items = [Item("Book")]
    // A key of every element is observed (see ElementObservationTests); this one never notifies.
    #expect(throws: KeyValueError.notObservable(key: "title", type: "Item")) {
      _ = try order.observe("items.title") { _ in }
    }
    #expect(
      throws: KeyValueError.malformedKeyPath(
        path: "items.0.title",
        reason: "an element of a to-many relationship cannot be observed by index")
    ) { _ = try order.observe("items.0.title") { _ in } }
    #expect(throws: KeyValueError.unknownOperator(operator: "@bogus", path: "items.@bogus")) {
      _ = try order.observe("items.@bogus") { _ in }
    }
    #expect(order.observationRegistrar.triggerCount == 0)
  }
}

/// A stored key and a computed key (notified by hand) that reads it.
private final class Echo: KeyValueObservable {
  let observationRegistrar = ObservationRegistrar()
  static let observableKeys: ObservableKeys<Echo> = [
    .attribute("shout", \.shout, notifiesAutomatically: false),
    .attribute("name", \.name),
  ]
  @Observed var name = ""
  var shout: String { name.uppercased() }
}
