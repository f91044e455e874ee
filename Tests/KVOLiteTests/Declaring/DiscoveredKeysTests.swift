import Foundation
import KVOLite
import KVOLiteTestSupport
import Testing

/// A generic model: each specialization has its own keys, whose roles follow `Value`.
private final class Box<Value>: KeyValueObservable, @unchecked Sendable {
  let observationRegistrar = ObservationRegistrar()
  @Observed var value: Value
  @Observed var history: [Value] = []
  init(_ value: Value) { self.value = value }
}

/// Nested types, an optional attribute and a text-convertible enum.
private enum Library {
  enum Status: String, KeyValueTextConvertible { case open, closed }

  final class Branch: KeyValueObservable, @unchecked Sendable {
    let observationRegistrar = ObservationRegistrar()
    @Observed var status = Status.open
    @Observed var phone: String? = nil
    @Observed var shelves: [Shelf] = []
  }
}

/// Another class with a key named like a key of `Book` but of another role (an attribute, where
/// `Book.author` is a to-one relationship).
private final class Magazine: KeyValueObservable, @unchecked Sendable {
  let observationRegistrar = ObservationRegistrar()
  @Observed var author = "staff"
}

/// Every `@Observed` property is a key, named after the property, with its role from its type.
@Suite("Keys found from @Observed properties")
struct DiscoveredKeysTests {
  private static func keys(_ table: ObservableKeys<some AnyObject>) -> [String] {
    table.keys.map { "\($0.name): \($0.role)" }
  }

  @Test("each @Observed property is a key named after it, its role from its type, in order")
  func roles() {
    #expect(
      Self.keys(Book.allObservableKeys) == [
        "title: attribute", "pages: attribute", "author: to-one relationship",
        "editor: to-one relationship", "tags: attribute",
      ])
    #expect(
      Self.keys(Shelf.allObservableKeys) == [
        "name: attribute", "books: to-many relationship", "totalPages: derived key",
      ])
    #expect(Self.keys(Author.allObservableKeys) == ["name: attribute"])
    // A found key has no key path: the runtime cannot make one for a wrapped property.
    #expect(Book.allObservableKeys["title"]?.keyPath == nil)
    #expect(Shelf.allObservableKeys["totalPages"]?.keyPath == \Shelf.totalPages)
  }

  @Test("typed key paths of one hop and of several observe found keys, as declared ones did")
  func typedObservation() {
    let book = Book(title: "Dune")
    let log = Log<String>()
    let title = book.observe(\.title, options: [.old, .new]) { _, change in
      log.append("title \(change.oldValue!) -> \(change.newValue!)")
    }
    let author = book.observe(\.author.name, options: [.new]) { _, change in
      log.append("author.name \(change.newValue!)")
    }
    book.title = "Dune Messiah"
    book.author.name = "Frank"
    let replaced = book.author
    book.author = Author(name: "Brian")
    replaced.name = "detached"
    #expect(
      log.all == [
        "title Dune -> Dune Messiah", "author.name Frank", "author.name Brian",
      ])
    _ = (title, author)
  }

  @Test("string key paths, key-value coding and text go through found keys")
  func stringsAndCoding() throws {
    let book = Book()
    let log = Log<String>()
    let token = try book.observe("editor.name", options: [.new]) { change in
      log.append("editor.name \(String(describing: change.newValue ?? nil))")
    }
    book.editor = Author(name: "Ed")
    try book.setValue(fromText: "412", forKeyPath: "pages")
    try book.setValue("Eve", forKeyPath: "editor.name")
    #expect(book.pages == 412)
    #expect(try book.value(forKeyPath: "editor.name") as? String == "Eve")
    #expect(
      throws: KeyValueError.unparsableText(
        text: "many", path: "pages", expected: "a whole number (Int)")
    ) { try book.setValue(fromText: "many", forKeyPath: "pages") }
    #expect(
      throws: KeyValueError.typeMismatch(path: "title", expected: "String", actual: "Int")
    ) { try book.setValue(7, forKeyPath: "title") }
    book.editor = nil
    #expect(try book.value(forKeyPath: "editor.name") == nil)
    #expect(
      log.all == [
        #"editor.name Optional("Ed")"#, #"editor.name Optional("Eve")"#, "editor.name nil",
      ])
    _ = token
  }

  @Test(
    "a found to-many relationship notifies its changes with their indexes, and operators read it")
  func toMany() throws {
    let shelf = Shelf(name: "Sci-fi")
    let log = Log<String>()
    let token = shelf.observe(\.books, options: [.new]) { _, change in
      log.append("\(change.kind) \(Array(change.indexes ?? []))")
    }
    let books = shelf.mutableArrayValue(for: \.books)
    books.append(Book(title: "Dune", pages: 412))
    try books.insert(Book(title: "Solaris", pages: 204), at: 0)
    #expect(try shelf.value(forKeyPath: "books.@sum.pages") as? Int == 616)
    #expect(try shelf.value(forKeyPath: "books.1.title") as? String == "Dune")
    try shelf.mutateToMany(.removal, forKeyPath: "books", at: [0])
    #expect(log.all == ["insertion [0]", "insertion [0]", "removal [0]"])
    _ = token
  }

  @Test("each specialization of a generic class has its own keys, with roles from its Value")
  func genericClasses() throws {
    let numbers = Box(1)
    let authors = Box(Author(name: "Ann"))
    #expect(
      Self.keys(Box<Int>.allObservableKeys) == ["value: attribute", "history: attribute"])
    #expect(
      Self.keys(Box<Author>.allObservableKeys) == [
        "value: to-one relationship", "history: to-many relationship",
      ])
    let log = Log<String>()
    let number = try numbers.observe("value", options: [.new]) { change in
      log.append("value \(change.newValue! ?? "nil")")
    }
    let name = try authors.observe("value.name", options: [.new]) { change in
      log.append("value.name \(change.newValue! ?? "nil")")
    }
    numbers.value = 2
    authors.value = Author(name: "Bob")
    try numbers.setValue(fromText: "3", forKeyPath: "value")
    #expect(log.all == ["value 2", "value.name Bob", "value 3"])
    _ = (number, name)
  }

  @Test("nested types, optional attributes and enums with a text form are keys too")
  func nestedOptionalsAndEnums() throws {
    let branch = Library.Branch()
    #expect(
      Self.keys(Library.Branch.allObservableKeys) == [
        "status: attribute", "phone: attribute", "shelves: to-many relationship",
      ])
    try branch.setValue(fromText: "closed", forKeyPath: "status")
    try branch.setValue("555-0100", forKeyPath: "phone")
    #expect(branch.status == .closed)
    try branch.setValue(nil, forKeyPath: "phone")
    #expect(branch.phone == nil)
    #expect(
      throws: KeyValueError.nilForNonOptional(path: "status", expected: "Status")
    ) { try branch.setValue(nil, forKeyPath: "status") }
  }

  @Test("a key named like a key of another class plays the role its own class gives it")
  func sameNameOtherRole() throws {
    #expect(try Magazine().value(forKeyPath: "author") as? String == "staff")
    #expect(try Book().value(forKeyPath: "author") is Author)
    #expect(
      throws: KeyValueError.notARelationship(key: "author", type: "Magazine", role: .attribute)
    ) { try Magazine().value(forKeyPath: "author.name") }
  }
}
