import KVOLite
import KVOLiteTestSupport
import Testing

/// A model whose computed properties are not declared (but `badge`, declared without
/// `affectedBy`): their inputs are found by reading them.
private final class Bookworm: KeyValueObservable, @unchecked Sendable {
  let observationRegistrar = ObservationRegistrar()
  static let observableKeys: ObservableKeys<Bookworm> = [.derived("badge", \.badge)]
  @Observed var first = "Ann"
  @Observed var last = "Lee"
  @Observed var usesNickname = false
  @Observed var nickname = "Annie"
  @Observed var favourite: Book? = nil
  @Observed var books: [Book] = []
  /// Reads `nickname` on one branch, `first` and `last` on the other.
  var display: String { usesNickname ? nickname : "\(first) \(last)" }
  /// Across a to-one chain.
  var favouriteAuthor: String { favourite?.author.name ?? "-" }
  /// Over the elements of a to-many relationship.
  var totalPages: Int { books.reduce(0) { $0 + $1.pages } }
  /// Reads `first` twice.
  var twice: String { first + first }
  /// Reads every book's pages twice.
  var doubledPages: Int { totalPages + totalPages }
  /// Declared, with no `affectedBy`: found by reading, observable by string.
  var badge: String { "\(first.prefix(1))\(last.prefix(1))" }
}

/// A model whose to-one `member` is a `Bookworm`: `member.badge` is a chain ending in a
/// derived key declared without `affectedBy`.
private final class Club: KeyValueObservable, @unchecked Sendable {
  let observationRegistrar = ObservationRegistrar()
  @Observed var member = Bookworm()
}

@Suite("Derived keys found by reading")
struct FoundInputsTests {
  @Test("a computed property's inputs on the object are found by reading it, with old and new")
  func inputsOnTheObject() {
    let reader = Bookworm()
    let log = Log<String>()
    let token = reader.observe(\.display, options: [.old, .new]) { _, change in
      log.append("\(change.oldValue ?? "nil") -> \(change.newValue ?? "nil")")
    }
    reader.first = "Bo"
    reader.last = "Ek"
    reader.nickname = "ignored: not read"
    #expect(log.all == ["Ann Lee -> Bo Lee", "Bo Lee -> Bo Ek"])
    token.invalidate()
  }

  @Test("inputs across a to-one chain follow the objects along it")
  func acrossToOne() {
    let reader = Bookworm()
    let book = Book(title: "Dune")
    let old = Author(name: "Old")
    book.author = old
    let log = Log<String>()
    let token = reader.observe(\.favouriteAuthor, options: [.new]) { _, change in
      log.append(change.newValue ?? "nil")
    }
    reader.favourite = book
    old.name = "Frank"
    book.author = Author(name: "Brian")
    old.name = "ignored: no longer read"
    book.author.name = "Kevin"
    reader.favourite = nil
    book.author.name = "ignored: the book is no longer read"
    #expect(log.all == ["Old", "Frank", "Brian", "Kevin", "-"])
    token.invalidate()
  }

  @Test("inputs over the elements of a to-many relationship follow insertions and removals")
  func overElements() throws {
    let reader = Bookworm()
    let first = Book(pages: 100)
    let second = Book(pages: 20)
    let log = Log<String>()
    let token = reader.observe(\.totalPages, options: [.old, .new]) { _, change in
      log.append(
        "\(change.oldValue.map(String.init) ?? "nil") -> \(change.newValue.map(String.init) ?? "nil")"
      )
    }
    let books = reader.mutableArrayValue(for: \.books)
    books.append(first)
    books.append(second)
    second.pages = 25
    try books.remove(at: 0)
    first.pages = 1
    reader.books = []
    second.pages = 2
    #expect(
      log.all == ["0 -> 100", "100 -> 120", "120 -> 125", "125 -> 25", "25 -> 0"])
    token.invalidate()
  }

  /// A reading of more than a few links keeps them in a table (a few are searched): each of
  /// them, the first and the last, is linked once, and read again.
  @Test("a reading of many inputs, each read twice, links each once", arguments: [3, 8, 9, 40])
  func manyInputs(count: Int) {
    let reader = Bookworm()
    let books = (1...count).map { Book(pages: $0) }
    reader.books = books
    let log = Log<Int>()
    let token = reader.observe(\.doubledPages, options: [.new]) { _, change in
      log.append(change.newValue ?? -1)
    }
    var expected: [Int] = []
    for book in books {
      book.pages += 100
      expected.append(reader.doubledPages)
    }
    books[0].pages = 0
    expected.append(reader.doubledPages)
    reader.books = Array(books.prefix(2))
    expected.append(reader.doubledPages)
    books[count - 1].pages = 7  // no longer read
    books[1].pages = 7
    expected.append(reader.doubledPages)
    #expect(log.all == expected)
    token.invalidate()
  }

  @Test("a getter that reads other keys on another branch is re-tracked after each change")
  func branchSwitch() {
    let reader = Bookworm()
    let log = Log<String>()
    let token = reader.observe(\.display, options: [.new]) { _, change in
      log.append(change.newValue ?? "nil")
    }
    reader.usesNickname = true
    reader.first = "ignored: not read on this branch"
    reader.nickname = "Nan"
    reader.usesNickname = false
    reader.nickname = "ignored again"
    reader.last = "Ek"
    #expect(
      log.all == [
        "Annie", "Nan", "ignored: not read on this branch Lee",
        "ignored: not read on this branch Ek",
      ])
    token.invalidate()
  }

  @Test(".initial and .prior are sent as for declared derived keys")
  func initialAndPrior() {
    let reader = Bookworm()
    let log = Log<String>()
    let token = reader.observe(\.display, options: [.initial, .prior, .old, .new]) { _, change in
      log.append(
        "\(change.isPrior ? "prior " : "")\(change.oldValue ?? "nil") -> \(change.newValue ?? "nil")"
      )
    }
    reader.first = "Bo"
    #expect(log.all == ["nil -> Ann Lee", "prior Ann Lee -> nil", "Ann Lee -> Bo Lee"])
    token.invalidate()
  }

  @Test(
    "one notification per change, however often the getter reads the key, and with declared inputs")
  func oneNotificationPerChange() {
    let reader = Bookworm()
    let person = Person(firstName: "Ann")
    let counter = Counter()
    let tokens = [
      reader.observe(\.twice) { _, _ in counter.increment() },
      // Declared inputs (firstName, lastName) and found ones (the same keys) merge.
      person.observe(\.fullName) { _, _ in counter.increment() },
    ]
    reader.first = "Bo"
    person.firstName = "Bo"
    person.lastName = "Lee"
    #expect(counter.count == 3)
    for token in tokens { token.invalidate() }
  }

  @Test("a derived key declared without affectedBy is observed by string through what it reads")
  func declaredWithoutAffectedBy() throws {
    let reader = Bookworm()
    let log = Log<String>()
    let token = try reader.observe("badge", options: [.initial, .new]) { change in
      log.append("\(change.newValue.map { "\($0 ?? "nil")" } ?? "none")")
    }
    reader.first = "Bo"
    reader.last = "Ek"
    reader.nickname = "ignored"
    #expect(log.all == ["AL", "BL", "BE"])
    token.invalidate()
  }

  @Test("an optional chain is observed through what it reads")
  func optionalChain() {
    let parcel = Parcel()
    let log = Log<String>()
    let token = parcel.observe(\.sender?.firstName, options: [.new]) { _, change in
      log.append((change.newValue ?? nil) ?? "nil")
    }
    let ann = Person(firstName: "Ann")
    parcel.sender = ann
    ann.firstName = "Bo"
    parcel.sender = nil
    ann.firstName = "ignored"
    #expect(log.all == ["Ann", "Bo", "nil"])
    token.invalidate()
  }

  @Test("after invalidate nothing is delivered, and releasing the token ends it too")
  func invalidate() {
    let reader = Bookworm()
    let counter = Counter()
    let token = reader.observe(\.totalPages) { _, _ in counter.increment() }
    let book = Book(pages: 1)
    reader.books = [book]
    token.invalidate()
    book.pages = 2
    reader.books = []
    do {
      let released = reader.observe(\.display) { _, _ in counter.increment() }
      _ = released
    }
    reader.first = "Bo"
    #expect(counter.count == 1)
  }

  @Test("a chain ending in a derived key declared without affectedBy follows what it reads")
  func chainToDerived() throws {
    let club = Club()
    let log = Log<String>()
    let token = try club.observe("member.badge", options: [.new]) { change in
      log.append("\(change.newValue.map { "\($0 ?? "nil")" } ?? "none")")
    }
    let old = club.member
    old.first = "Bo"
    let other = Bookworm()
    other.last = "Ek"
    club.member = other
    old.first = "ignored: no longer the member"
    other.first = "Cy"
    #expect(log.all == ["BL", "AE", "CE"])
    token.invalidate()
  }
}
