import Foundation
import KVOLite
import KVOLiteTestSupport
import Testing

/// A book: pages, tags, and a to-one author.
private final class Book: KeyValueObservable, @unchecked Sendable {
  let observationRegistrar = ObservationRegistrar()
  static let observableKeys: ObservableKeys<Book> = [
    .attribute("pages", \.pages), .attribute("tags", \.tags), .attribute("isbn", \.isbn),
  ]
  @Observed var pages: Int
  @Observed var tags: [String]
  /// Never changes: observed through the relationship only.
  let isbn: Int
  init(_ pages: Int, tags: [String] = []) {
    self.pages = pages
    self.tags = tags
    isbn = pages
  }
}

/// A shelf of books, with values derived from every book's pages.
private final class Shelf: KeyValueObservable, @unchecked Sendable {
  let observationRegistrar = ObservationRegistrar()
  static let observableKeys: ObservableKeys<Shelf> = [
    .toMany("books", \.books),
    .attribute("name", \.name),
    .derived("totalPages", \.totalPages, affectedBy: ["books.pages"]),
    .derived("summary", \.summary, affectedBy: ["name", "books.@sum.pages"]),
    .derived("longest", \.longest, affectedBy: ["totalPages"]),
  ]
  @Observed var books: [Book] = []
  @Observed var name = ""
  var totalPages: Int { books.reduce(0) { $0 + $1.pages } }
  var summary: String { "\(name): \(totalPages)" }
  var longest: Int { books.map(\.pages).max() ?? 0 }
}

/// A library with one shelf, for chains that end in a derived key over elements.
private final class Library: KeyValueObservable, @unchecked Sendable {
  let observationRegistrar = ObservationRegistrar()
  static let observableKeys: ObservableKeys<Library> = [.toOne("shelf", \.shelf)]
  @Observed var shelf = Shelf()
}

/// A shelf whose derived key names a key its books do not have.
private final class Misdeclared: KeyValueObservable, @unchecked Sendable {
  let observationRegistrar = ObservationRegistrar()
  static let observableKeys: ObservableKeys<Misdeclared> = [
    .toMany("books", \.books), .derived("total", \.total, affectedBy: ["books.pagez"]),
  ]
  @Observed var books: [Book] = []
  var total: Int { 0 }
}

@Suite("Derived keys and collection operators over a key of every element")
struct ElementAggregateTests {
  /// Records each change as text: kind, old and new (or "-").
  private static func text(_ change: KeyValueChange<Any?>) -> String {
    func show(_ value: Any??) -> String {
      guard let value else { return "-" }
      return value.map { "\($0)" } ?? "nil"
    }
    return
      "\(change.isPrior ? "prior " : "")\(change.kind) \(show(change.oldValue)) \(show(change.newValue))"
  }

  @Test(
    "a derived key over a key of every element notifies when an element's key changes and when elements are inserted, removed, replaced or set"
  )
  func derivedOverElements() throws {
    let shelf = Shelf()
    let (a, b) = (Book(100), Book(200))
    shelf.books = [a]
    let log = Log<String>()
    let token = shelf.observe(\.totalPages, options: [.initial, .old, .new]) { _, change in
      log.append("\(change.kind) \(change.oldValue.map(String.init) ?? "-") \(change.newValue!)")
    }
    a.pages = 110
    let books = shelf.mutableArrayValue(for: \.books)
    books.append(b)
    b.pages = 210
    try books.replace(at: 0, with: Book(50))
    a.pages = 999  // no longer on the shelf
    _ = try books.remove(at: 1)
    b.pages = 999  // no longer on the shelf either
    shelf.books = [a, a]
    a.pages = 1
    #expect(
      log.all == [
        "setting - 100", "setting 100 110", "setting 110 310", "setting 310 320",
        "setting 320 260", "setting 260 50", "setting 50 1998", "setting 1998 2",
      ])
    token.invalidate()
    a.pages = 3
    #expect(log.all.count == 8)
    #expect(a.observationRegistrar.triggerCount == 0)
    #expect(shelf.observationRegistrar.triggerCount == 0)
  }

  @Test("derived keys over derived keys and operators over elements follow the elements too")
  func derivedChains() throws {
    let shelf = Shelf()
    let book = Book(10)
    shelf.books = [book]
    shelf.name = "A"
    let log = Log<String>()
    let summary = try shelf.observe("summary", options: [.new]) { log.append(Self.text($0)) }
    let longest = try shelf.observe("longest", options: [.prior, .old, .new]) {
      log.append(Self.text($0))
    }
    book.pages = 20
    shelf.name = "B"
    #expect(
      log.all == ["prior setting 10 -", "setting - A: 20", "setting 10 20", "setting - B: 20"])
    _ = (summary, longest)
  }

  @Test("a chain that ends in a derived key over elements follows a replaced intermediate")
  func chainToDerivedOverElements() throws {
    let library = Library()
    let book = Book(5)
    library.shelf.books = [book]
    let log = Log<String>()
    let token = try library.observe("shelf.totalPages", options: [.old, .new]) {
      log.append(Self.text($0))
    }
    book.pages = 6
    let old = library.shelf
    library.shelf = Shelf()
    old.books[0].pages = 7  // on the replaced shelf: nothing
    library.shelf.mutableArrayValue(for: \.books).append(Book(9))
    #expect(log.all == ["setting 5 6", "setting 6 0", "setting 0 9"])
    _ = token
  }

  @Test(
    "every collection operator over a key of the elements notifies, as a setting of the whole value, when that key of an element changes",
    arguments: [
      ("books.@count", ["2", "3"]),
      ("books.@sum.pages", ["30", "50", "51", "52"]),
      ("books.@avg.pages", ["15.0", "25.0", "17.0", "17.333333333333332"]),
      ("books.@min.pages", ["10", "10", "1", "2"]),
      ("books.@max.pages", ["20", "40", "40", "40"]),
      ("books.@unionOfObjects.pages", ["[10, 20]", "[10, 40]", "[10, 40, 1]", "[10, 40, 2]"]),
      (
        "books.@distinctUnionOfObjects.pages",
        ["[10, 20]", "[10, 40]", "[10, 40, 1]", "[10, 40, 2]"]
      ),
      (
        "books.@unionOfArrays.tags",
        [#"["a", "b", "b"]"#, #"["a", "c", "b"]"#, #"["a", "c", "b", "d"]"#]
      ),
      (
        "books.@distinctUnionOfArrays.tags",
        [#"["a", "b"]"#, #"["a", "c", "b"]"#, #"["a", "c", "b", "d"]"#]
      ),
      // A key that never changes is followed through the relationship only.
      ("books.@sum.isbn", ["30", "31"]),
    ])
  func operators(path: String, expected: [String]) throws {
    let shelf = Shelf()
    let (a, b) = (Book(10, tags: ["a"]), Book(20, tags: ["b", "b"]))
    shelf.books = [a, b]
    let log = Log<String>()
    let token = try shelf.observe(path, options: [.initial, .new]) { change in
      log.append(change.newValue!.map { "\($0)" } ?? "nil")
    }
    b.pages = 40
    b.tags = ["c", "b"]
    let c = Book(1, tags: ["d"])
    shelf.mutableArrayValue(for: \.books).append(c)  // inserted elements are followed
    c.pages = 2
    #expect(log.all == expected)
    _ = token
  }

  @Test("an element that joins while a change of its key is in flight still counts that change")
  func elementJoiningDuringAChange() throws {
    let shelf = Shelf()
    let book = Book(1)
    let sums = ValueTrack<String>()
    let sum = try shelf.observe("books.@sum.pages", options: [.initial, .old, .new]) {
      sums.apply(erased: $0)
    }
    let totals = ValueTrack<Int>()
    let total = shelf.observe(\.totalPages, options: [.initial, .old, .new]) { _, change in
      totals.apply(change)
    }
    var joined = false
    let prior = book.observe(\.pages, options: [.prior]) { _, change in
      guard change.isPrior, !joined else { return }
      joined = true
      shelf.mutableArrayValue(for: \.books).append(book)
    }
    book.pages = 5
    #expect(sums.problems == [] && sums.last == "5")
    #expect(totals.problems == [] && totals.last == 5)
    _ = (sum, total, prior)
  }

  @Test("a mistake in an element path of a derived key throws at registration, naming the key")
  func misdeclaredElementPath() {
    let expected = KeyValueError.unknownKey(
      key: "pagez", type: "Book", path: "", suggestion: "pages")
    #expect(throws: expected) { try Misdeclared().observe("total") { _ in } }
    #expect(
      throws: KeyValueError.unknownKey(
        key: "pagez", type: "Book", path: "books.@sum", suggestion: "pages")
    ) { try Shelf().observe("books.@sum.pagez") { _ in } }
  }

  @Test(
    "under concurrent element changes, inserts and removes, the last value delivered is the model's, and each old value is the previous new one"
  )
  func concurrentAggregates() throws {
    for round in 0..<20 {
      let shelf = Shelf()
      let pool = (0..<6).map { Book($0) }
      shelf.books = [pool[0], pool[1]]
      let totals = Locked<(last: Int?, problems: [String])>((nil, []))
      let derived = shelf.observe(\.totalPages, options: [.initial, .old, .new]) { _, change in
        totals.withLock { state in
          if let last = state.last, change.oldValue != last {
            state.problems.append("old \(String(describing: change.oldValue)) after \(last)")
          }
          state.last = change.newValue
        }
      }
      let sums = Locked<Int?>(nil)
      let sum = try shelf.observe("books.@sum.pages", options: [.initial, .new]) { change in
        sums.withLock { $0 = change.newValue as? Int }
      }
      race(workers: 3) { worker in
        let books = shelf.mutableArrayValue(for: \.books)
        for index in 0..<300 {
          switch worker {
          case 0: pool[index % pool.count].pages = index
          case 1:
            if index % 2 == 0 {
              books.append(pool[index % pool.count])
            } else {
              _ = try? books.remove(at: 0)
            }
          default:
            if index % 32 == 0 { shelf.books = Array(pool.shuffled().prefix(2)) }
            pool[(index + 3) % pool.count].pages = -index
          }
        }
      }
      #expect(totals.withLock { $0.problems } == [], "round \(round)")
      #expect(totals.withLock { $0.last } == shelf.totalPages, "round \(round)")
      #expect(sums.withLock { $0 } == shelf.totalPages, "round \(round)")
      _ = (derived, sum)
    }
  }
}
