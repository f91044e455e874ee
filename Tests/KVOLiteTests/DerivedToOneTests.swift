import Foundation
import KVOLite
import KVOLiteTestSupport
import Testing

/// A contact with a name.
private final class Contact: KeyValueObservable, @unchecked Sendable {
  let observationRegistrar = ObservationRegistrar()
  static let observableKeys: ObservableKeys<Contact> = [.attribute("name", \.name)]
  @Observed var name: String
  init(_ name: String) { self.name = name }
}

/// An address book whose `primary` contact is derived: the first of its contacts, or the one
/// chosen by `preferred`.
private final class Book: KeyValueObservable, @unchecked Sendable {
  let observationRegistrar = ObservationRegistrar()
  static let observableKeys: ObservableKeys<Book> = [
    .toMany("contacts", \.contacts),
    .attribute("preferred", \.preferred),
    .derived("primary", \.primary, affectedBy: ["contacts", "preferred"]),
    .derived("first", \.first, affectedBy: ["contacts"]),
  ]
  @Observed var contacts: [Contact] = []
  @Observed var preferred: Int? = nil
  var primary: Contact? {
    guard let preferred else { return contacts.first }
    return contacts.indices.contains(preferred) ? contacts[preferred] : nil
  }
  var first: Contact { contacts.first ?? Contact("nobody") }
}

@Suite("Key paths that continue past a derived to-one key")
struct DerivedToOneTests {
  @Test("key-value coding reads through a derived to-one key; nil where it is nil")
  func reads() throws {
    let book = Book()
    #expect(try book.value(forKeyPath: "primary.name") == nil)
    #expect(try book.value(forKeyPath: "first.name") as? String == "nobody")
    book.contacts = [Contact("Ann"), Contact("Bob")]
    #expect(try book.value(forKeyPath: "primary.name") as? String == "Ann")
    book.preferred = 1
    #expect(try book.value(forKeyPath: "primary.name") as? String == "Bob")
    try book.setValue("Bea", forKeyPath: "primary.name")
    #expect(book.contacts[1].name == "Bea")
    #expect(
      throws: KeyValueError.unknownKey(
        key: "nme", type: "Contact", path: "primary", suggestion: "name")
    ) {
      try book.value(forKeyPath: "primary.nme")
    }
  }

  @Test(
    "an observation through it follows the derived object as its inputs change, and stops watching the old one"
  )
  func observes() throws {
    let book = Book()
    let ann = Contact("Ann")
    let bob = Contact("Bob")
    var seen: [String] = []
    let token = try book.observe("primary.name", options: [.old, .new]) { change in
      seen.append(
        "\(change.oldValue.map { "\($0 ?? "nil")" } ?? "-") -> \(change.newValue.map { "\($0 ?? "nil")" } ?? "-")"
      )
    }
    book.contacts = [ann, bob]
    ann.name = "Ann2"
    book.preferred = 1
    ann.name = "Ann3"  // no longer the primary: not seen
    bob.name = "Bob2"
    // Bob moves to 0; the preferred index 1 is out of range.
    _ = try book.mutableArrayValue(for: \.contacts).remove(at: 0)
    bob.name = "Bob3"  // not the primary any more
    #expect(seen == ["nil -> Ann", "Ann -> Ann2", "Ann2 -> Bob", "Bob -> Bob2", "Bob2 -> nil"])
    token.invalidate()
  }

  @Test("a typed key path through a derived to-one key observes the same way")
  func typed() throws {
    let book = Book()
    let ann = Contact("Ann")
    var seen: [String] = []
    let token = book.observe(\.first.name, options: [.new, .initial]) { _, change in
      seen.append(change.newValue ?? "-")
    }
    book.contacts = [ann]
    ann.name = "Ann2"
    book.contacts = []
    ann.name = "Ann3"
    #expect(seen == ["nobody", "Ann", "Ann2", "nobody"])
    withExtendedLifetime(token) {}
  }
}
