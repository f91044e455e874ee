import KVOLite
import Observation

// Models that Swift Observation sees: `Observable` declared where the class adopts
// KeyValueObservable. This file imports both Observation and KVOLite and names
// `ObservationRegistrar` unqualified: KVOLite's (it shadows Observation's, whose `@Observable`
// expansion names it in full).

/// A book: pages and a title.
final class TrackedBook: KeyValueObservable, Observable, @unchecked Sendable {
  let observationRegistrar = ObservationRegistrar()
  @Observed var title: String
  @Observed var pages: Int

  init(_ title: String, pages: Int) {
    self.title = title
    self.pages = pages
  }
}

/// An author, the shelf's to-one relationship.
final class TrackedAuthor: KeyValueObservable, Observable, @unchecked Sendable {
  let observationRegistrar = ObservationRegistrar()
  @Observed var name: String

  init(_ name: String) { self.name = name }
}

/// A shelf: a title, a to-one author, a to-many list of books, and derived keys over them.
final class TrackedShelf: KeyValueObservable, Observable, @unchecked Sendable {
  let observationRegistrar = ObservationRegistrar()
  @Observed var title = "Shelf"
  @Observed var author = TrackedAuthor("Ann")
  @Observed var books: [TrackedBook] = []

  /// Derived from the books' pages (element keys).
  var totalPages: Int { books.reduce(0) { $0 + $1.pages } }
  /// Derived from the title, the author's name (a to-one chain) and the books.
  var summary: String { "\(title) by \(author.name): \(books.count) books, \(totalPages) pages" }
}

/// The same shelf, not `Observable`: Swift Observation never hears of it.
final class UntrackedShelf: KeyValueObservable, @unchecked Sendable {
  let observationRegistrar = ObservationRegistrar()
  @Observed var title = "Shelf"
}

/// A class meant to be subclassed, `Observable` at its root.
class TrackedItem: KeyValueObservable, Observable, @unchecked Sendable {
  let observationRegistrar = ObservationRegistrar()
  @Observed var name = "item"
}

/// A subclass that adds a property: tracked through its root's conformance.
final class TrackedTool: TrackedItem, @unchecked Sendable {
  @Observed var weight = 1
}

/// A root that is not `Observable`.
class PlainItem: KeyValueObservable, @unchecked Sendable {
  let observationRegistrar = ObservationRegistrar()
  @Observed var name = "item"
}

/// A subclass that adds `Observable` below a root that is not: misuse, stopped at its first
/// read with a message.
final class LateObservableItem: PlainItem, Observable, @unchecked Sendable {}

/// A model using Swift's registrar by its full name next to KVOLite's, in a file that imports
/// both: `@Observable` compiles here.
@Observable final class SwiftOnlyCounter: @unchecked Sendable {
  var count = 0
}
