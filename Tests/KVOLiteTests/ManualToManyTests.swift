import Foundation
import KVOLite
import KVOLiteTestSupport
import Testing

/// A to-many key whose changes are announced by hand.
private final class Shelf: KeyValueObservable, @unchecked Sendable {
  let observationRegistrar = ObservationRegistrar()
  static let observableKeys: ObservableKeys<Shelf> = [
    .toMany("books", \.books, notifiesAutomatically: false),
    .attribute("label", \.label),
  ]
  @Observed var books: [String] = ["a", "b", "c"]
  @Observed var label = ""
}

@Suite("Manual notification of to-many changes")
struct ManualToManyTests {
  /// Records every change of `books` as text: kind, indexes, old, new, prior.
  private static func record(_ shelf: Shelf, options: ObservingOptions) -> (
    ObservationToken, () -> [String]
  ) {
    var seen: [String] = []
    let token = shelf.observe(\.books, options: options) { _, change in
      var line = "\(change.kind) \(change.indexes.map { Array($0) } ?? [])"
      if let old = change.oldValue { line += " old \(old)" }
      if let new = change.newValue { line += " new \(new)" }
      if change.isPrior { line += " prior" }
      seen.append(line)
    }
    return (token, { seen })
  }

  @Test(
    "insertion, removal and replacement deliver their kind, indexes, and old/new as Foundation computes them"
  )
  func kinds() throws {
    let shelf = Shelf()
    let (token, seen) = Self.record(shelf, options: [.old, .new, .prior])
    shelf.willChange(.insertion, valuesAt: [1, 3], for: \.books)
    shelf.books = ["a", "x", "b", "y", "c"]
    shelf.didChange(.insertion, valuesAt: [1, 3], for: \.books)
    try shelf.willChange(.removal, valuesAt: [0, 4], forKey: "books")
    shelf.books = ["x", "b", "y"]
    try shelf.didChange(.removal, valuesAt: [0, 4], forKey: "books")
    shelf.willChange(.replacement, valuesAt: [1], for: \.books)
    shelf.books = ["x", "B", "y"]
    shelf.didChange(.replacement, valuesAt: [1], for: \.books)
    #expect(
      seen() == [
        "insertion [1, 3] prior", "insertion [1, 3] new [\"x\", \"y\"]",
        "removal [0, 4] old [\"a\", \"c\"] prior", "removal [0, 4] old [\"a\", \"c\"]",
        "replacement [1] old [\"b\"] prior", "replacement [1] old [\"b\"] new [\"B\"]",
      ])
    withExtendedLifetime(token) {}
  }

  @Test("string-key-path observers and chains get the same changes, boxed")
  func boxed() throws {
    let shelf = Shelf()
    var seen: [String] = []
    let token = try shelf.observe("books", options: [.old, .new]) { change in
      seen.append(
        "\(change.kind) \(Array(change.indexes ?? [])) \(String(describing: change.oldValue ?? nil)) \(String(describing: change.newValue ?? nil))"
      )
    }
    let count = try shelf.observe("books.@count", options: [.new]) { change in
      seen.append("count \(change.newValue.map { "\($0 ?? "nil")" } ?? "-")")
    }
    shelf.willChange(.removal, valuesAt: [2], for: \.books)
    shelf.books.removeLast()
    shelf.didChange(.removal, valuesAt: [2], for: \.books)
    #expect(seen == [#"removal [2] Optional(["c"]) nil"#, "count 2"])
    withExtendedLifetime((token, count)) {}
  }

  @Test("errors: an undeclared or non-to-many key, an index out of range; nothing is announced")
  func errors() throws {
    let shelf = Shelf()
    let (token, seen) = Self.record(shelf, options: [.old, .prior])
    #expect(throws: KeyValueError.indexOutOfRange(index: 3, count: 3, path: "books")) {
      try shelf.willChange(.removal, valuesAt: [0, 3], forKey: "books")
    }
    #expect(throws: KeyValueError.notARelationship(key: "label", type: "Shelf", role: .attribute)) {
      try shelf.willChange(.insertion, valuesAt: [0], forKey: "label")
    }
    #expect(throws: KeyValueError.self) {
      try shelf.willChange(.insertion, valuesAt: [0], forKey: "bogus")
    }
    // A did-time whose indexes no longer fit finishes the pair without notifying.
    try shelf.willChange(.insertion, valuesAt: [5], forKey: "books")
    #expect(throws: KeyValueError.indexOutOfRange(index: 5, count: 3, path: "books")) {
      try shelf.didChange(.insertion, valuesAt: [5], forKey: "books")
    }
    try shelf.didChange(.insertion, valuesAt: [5], forKey: "books")
    #expect(seen() == ["insertion [5] prior"])
    withExtendedLifetime(token) {}
  }

  @Test("the typed forms do not throw: unobserved, indexes out of range are not even read")
  func typedFormsUnobserved() {
    let shelf = Shelf()
    shelf.willChange(.removal, valuesAt: [7], for: \.books)
    shelf.didChange(.removal, valuesAt: [7], for: \.books)
    shelf.willChange(.insertion, valuesAt: [9], for: \.books)
    shelf.didChange(.insertion, valuesAt: [9], for: \.books)
    #expect(shelf.books == ["a", "b", "c"])
  }

  @Test("the typed forms stop the program at an observed index out of range, as Foundation raises")
  func typedFormsObservedOutOfRange() async {
    await #expect(processExitsWith: .failure) {
      let shelf = Shelf()
      let token = shelf.observe(\.books, options: [.old]) { _, _ in }
      shelf.willChange(.removal, valuesAt: [0, 3], for: \.books)
      withExtendedLifetime(token) {}
    }
    await #expect(processExitsWith: .failure) {
      let shelf = Shelf()
      let token = shelf.observe(\.books, options: [.new]) { _, _ in }
      shelf.willChange(.insertion, valuesAt: [5], for: \.books)
      shelf.didChange(.insertion, valuesAt: [5], for: \.books)
      withExtendedLifetime(token) {}
    }
  }

  @Test("a .setting with indexes is a change of the whole array; an unobserved pair does nothing")
  func settingAndUnobserved() throws {
    let quiet = Shelf()
    quiet.willChange(.removal, valuesAt: [0], for: \.books)
    quiet.books = []
    quiet.didChange(.removal, valuesAt: [0], for: \.books)
    let shelf = Shelf()
    let (token, seen) = Self.record(shelf, options: [.old, .new])
    shelf.willChange(.setting, valuesAt: [0], for: \.books)
    shelf.books = ["z"]
    shelf.didChange(.setting, valuesAt: [0], for: \.books)
    #expect(seen() == [#"setting [] old ["a", "b", "c"] new ["z"]"#])
    withExtendedLifetime(token) {}
  }
}
