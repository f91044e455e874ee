import KVOLite
import KVOLiteTestSupport
import Observation
import Testing

/// The models of the Declaring observable models article's section "Observing with Swift
/// Observation".
enum ObservationArticle {
  final class Book: KeyValueObservable, Observable, @unchecked Sendable {
    let observationRegistrar = ObservationRegistrar()
    @Observed var pages = 0

    init(pages: Int) { self.pages = pages }
  }

  final class Shelf: KeyValueObservable, Observable {
    let observationRegistrar = ObservationRegistrar()
    @Observed var title = "Poetry"
    @Observed var books: [Book] = []
    var totalPages: Int { books.reduce(0) { $0 + $1.pages } }
  }
}

extension ObservationArticle.Shelf: @unchecked Sendable {}

@Suite("The Swift Observation article's example")
struct ObservationArticleTests {
  @Test("the shelf's total is tracked through a book it read: onChange sees the old total")
  func example() {
    let shelf = ObservationArticle.Shelf()
    shelf.books = [ObservationArticle.Book(pages: 10), ObservationArticle.Book(pages: 5)]
    let changes = Log<Int>()
    withObservationTracking {
      _ = shelf.totalPages
    } onChange: {
      changes.append(shelf.totalPages)  // Before the change: a book's pages, an insertion…
    }
    shelf.books[0].pages = 20
    #expect(changes.all == [15])
    #expect(shelf.totalPages == 25)
  }
}
