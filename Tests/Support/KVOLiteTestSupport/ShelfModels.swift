// swift-format-ignore-file: AllPublicDeclarationsHaveDocumentation

// The three models of the "declaring models" measurement, declared as a user writes them: one
// line per stored property, one declaration for the derived key. They live in this module so
// that the tests see them as models declared in another module.
import KVOLite

/// An author: one attribute.
public final class Author: KeyValueObservable, @unchecked Sendable {
  public let observationRegistrar = ObservationRegistrar()
  @Observed public var name = ""

  public init(name: String = "") { self.name = name }
}

/// A book: attributes, a to-one author and an optional to-one editor.
public final class Book: KeyValueObservable, @unchecked Sendable {
  public let observationRegistrar = ObservationRegistrar()
  @Observed public var title = ""
  @Observed public var pages = 0
  @Observed public var author = Author()
  @Observed public var editor: Author? = nil
  @Observed public var tags: [String] = []

  public init(title: String = "", pages: Int = 0) {
    self.title = title
    self.pages = pages
  }
}

/// A shelf: a name, a to-many `books`, and the derived `totalPages` over every book's pages.
public final class Shelf: KeyValueObservable, @unchecked Sendable {
  public let observationRegistrar = ObservationRegistrar()
  public static let observableKeys: ObservableKeys<Shelf> = [
    .derived("totalPages", \.totalPages, affectedBy: ["books.pages"])
  ]
  @Observed public var name = ""
  @Observed public var books: [Book] = []
  public var totalPages: Int { books.reduce(0) { $0 + $1.pages } }

  public init(name: String = "") { self.name = name }
}
