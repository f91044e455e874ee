import Foundation
import KVOLiteCombine
import KVOLiteCombineFoundation
import KVOLiteCombineNetworking
import KVOLiteTestSupport
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The Books article's view model, written as the article writes it (only the import and the
/// queue it receives on differ), against a loopback HTTP server.
final class BooksViewModel: ObservableObject {
  struct Book: Decodable, Equatable {
    let title: String
    let author: String
  }

  @Published private(set) var books: [Book] = []
  private var cancellables = Set<AnyCancellable>()

  func fetchBooks(from url: URL, session: URLSession = .shared, on queue: DispatchQueue) {
    session.dataTaskPublisher(for: url)
      .map(\.data)
      .decode(type: [Book].self, decoder: JSONDecoder())
      .receive(on: queue)
      .replaceError(with: [])
      .assign(to: \.books, on: self)
      .store(in: &cancellables)
  }
}

@Suite("The Books article's view model")
struct BooksViewModelTests {
  @Test("loads, decodes and assigns the books; a bad answer becomes no books")
  func books() throws {
    let server = try LoopbackHTTPServer { line in
      line == "GET /books HTTP/1.1"
        ? LoopbackHTTPServer.response("200 OK", #"[{"title":"Dune","author":"Herbert"}]"#)
        : LoopbackHTTPServer.response("500 Internal Server Error", "oops")
    }
    defer { server.stop() }
    let queue = DispatchQueue(label: "books")
    let viewModel = BooksViewModel()
    let updates = Locked<[[BooksViewModel.Book]]>([])
    let watch = viewModel.$books.dropFirst().sink { books in updates.withLock { $0.append(books) } }
    viewModel.fetchBooks(
      from: server.url("/books"), session: URLSession(configuration: .ephemeral), on: queue)
    FoundationPublisherTests.wait { updates.withLock { $0.count } == 1 }
    viewModel.fetchBooks(
      from: server.url("/broken"), session: URLSession(configuration: .ephemeral), on: queue)
    FoundationPublisherTests.wait { updates.withLock { $0.count } == 2 }
    #expect(
      updates.withLock { $0 } == [[BooksViewModel.Book(title: "Dune", author: "Herbert")], []])
    queue.sync {}
    _ = watch
  }
}
