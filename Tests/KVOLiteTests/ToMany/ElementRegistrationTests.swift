import Foundation
import KVOLite
import KVOLiteTestSupport
import Testing

/// A classic observer that records the changes it receives as text, and runs `onChange` after.
private final class Listener: KeyValueObserver {
  var received: [String] = []
  var onChange: ((Listener, any KeyValueObservable) -> Void)?

  func observeValue(
    forKeyPath keyPath: String, of object: any KeyValueObservable, change: KeyValueChange<Any?>,
    context: UnsafeMutableRawPointer?
  ) {
    received.append("\(keyPath) \(ElementRegistrationTests.text(change))")
    onChange?(self, object)
  }
}

/// Registrations of observations that follow elements: several key paths at once and the classic
/// observer API, whose `.initial` notification waits for the registration to be complete.
@Suite("Registering observations that follow elements")
struct ElementRegistrationTests {
  /// A change as text: kind, then the new value (`-` when absent).
  static func text(_ change: KeyValueChange<Any?>) -> String {
    func describe(_ value: Any?) -> String {
      guard let value else { return "nil" }
      if let values = value as? [Any?] {
        return "[" + values.map(describe).joined(separator: ",") + "]"
      }
      return "\(value)"
    }
    return "\(change.kind) \(change.newValue.map(describe) ?? "-")"
  }

  static let paths = ["books.pages", "books.@sum.pages", "totalPages", "books.@count"]

  /// A shelf with two books (one of them twice), and the books.
  static func shelf() -> (Shelf, [Book]) {
    let shelf = Shelf()
    let books = [Book(title: "A", pages: 1), Book(title: "B", pages: 2)]
    shelf.books = [books[0], books[1], books[0]]
    return (shelf, books)
  }

  /// Observations left on the shelf and its books.
  static func left(_ shelf: Shelf, _ books: [Book]) -> Int {
    books.map(\.observationRegistrar.triggerCount).reduce(0, +)
      + shelf.observationRegistrar.triggerCount
  }

  @Test(
    "observe([keyPaths]) over elements with a failing key path last throws, sends nothing and leaves nothing",
    arguments: ["books.title.nope", "books.@nope.pages", "nope"])
  func failingLast(failing: String) {
    let (shelf, books) = Self.shelf()
    var seen: [String] = []
    #expect(throws: KeyValueError.self) {
      _ = try shelf.observe(Self.paths + [failing], options: [.initial, .new]) { path, change in
        seen.append("\(path) \(Self.text(change))")
      }
    }
    #expect(Self.left(shelf, books) == 0)
    books[1].pages = 3
    shelf.books.append(Book())
    #expect(seen == [])
  }

  @Test(
    "a change made inside an .initial notification reaches the key paths registered with it after their own .initial"
  )
  func changeInsideInitial() throws {
    let (shelf, books) = Self.shelf()
    var seen: [String] = []
    let token = try shelf.observe(["name"] + Self.paths, options: [.initial, .new]) {
      path, change in
      seen.append("\(path) \(Self.text(change))")
      if path == "name", change.kind == .setting, books[1].pages == 2 { books[1].pages = 5 }
    }
    #expect(
      seen == [
        "name setting ",
        "books.pages setting [1,2,1]", "books.pages replacement [5]",
        "books.@sum.pages setting 4", "books.@sum.pages setting 7",
        "totalPages setting 7", "totalPages setting 7",
        "books.@count setting 3",
      ])
    seen = []
    books[0].pages = 0
    #expect(
      seen == [
        "books.pages replacement [0,0]", "books.@sum.pages setting 5", "totalPages setting 5",
      ])
    token.invalidate()
    #expect(Self.left(shelf, books) == 0)
  }

  @Test(
    "an observer of a key of every element may remove itself inside its .initial notification",
    arguments: paths)
  func removalInsideInitial(path: String) throws {
    let (shelf, books) = Self.shelf()
    let listener = Listener()
    listener.onChange = { listener, object in
      (object as? Shelf)?.removeObserver(listener, forKeyPath: path)
    }
    try shelf.addObserver(listener, forKeyPath: path, options: [.initial, .new])
    books[0].pages = 9
    shelf.books.remove(at: 0)
    #expect(listener.received.count == 1)
    #expect(Self.left(shelf, books) == 0)
  }

  @Test(
    "an observer of a key of every element may remove itself inside a later notification",
    arguments: paths)
  func removalInsideLater(path: String) throws {
    let (shelf, books) = Self.shelf()
    let listener = Listener()
    listener.onChange = { listener, object in
      guard listener.received.count == 2 else { return }
      (object as? Shelf)?.removeObserver(listener, forKeyPath: path)
      // Made inside the delivery that removed it: not delivered.
      books[1].pages += 1
    }
    try shelf.addObserver(listener, forKeyPath: path, options: [.initial, .new])
    books[0].pages = 9
    books[1].pages = 8
    shelf.books.remove(at: 0)
    #expect(listener.received.count == 2)
    #expect(Self.left(shelf, books) == 0)
  }

  @Test("addObserver of a key of every element delivers its .initial first, then every change")
  func classicReplay() throws {
    let (shelf, books) = Self.shelf()
    let listener = Listener()
    try shelf.addObserver(listener, forKeyPath: "books.pages", options: [.initial, .new])
    books[0].pages = 4
    shelf.mutableArrayValue(for: \.books).append(books[1])
    #expect(
      listener.received == [
        "books.pages setting [1,2,1]", "books.pages replacement [4,4]",
        "books.pages insertion [2]",
      ])
    shelf.removeObserver(listener, forKeyPath: "books.pages")
    #expect(Self.left(shelf, books) == 0)
  }

  @Test(
    "observe([keyPaths]) from inside a delivery of the change it follows: .initial has the new values, and nothing contradicts it"
  )
  func insideDelivery() throws {
    let (shelf, books) = Self.shelf()
    var nested: [String] = []
    var inner: ObservationToken?
    let outer = try shelf.observe("books.pages", options: [.new]) { _ in
      guard inner == nil else { return }
      inner = try? shelf.observe(Self.paths, options: [.initial, .new]) {
        path, change in nested.append("\(path) \(Self.text(change))")
      }
    }
    books[1].pages = 7
    books[0].pages = 3
    #expect(
      nested == [
        "books.pages setting [1,7,1]", "books.@sum.pages setting 9", "totalPages setting 9",
        "books.@count setting 3", "books.pages replacement [3,3]", "books.@sum.pages setting 13",
        "totalPages setting 13",
      ])
    withExtendedLifetime((outer, inner)) {}
  }
}
