import KVOLite
import KVOLiteTestSupport
import Testing

// The Declaring observable models article's derived-key example, as it is written there.
class Reader: KeyValueObservable {
  let observationRegistrar = ObservationRegistrar()
  static let observableKeys: ObservableKeys<Reader> = [.derived("display", \.display)]
  @Observed var usesNickname = false
  @Observed var nickname = ""
  @Observed var first = ""
  @Observed var last = ""
  @Observed var books: [Book] = []
  var display: String { usesNickname ? nickname : "\(first) \(last)" }  // "display" by string too
  var totalPages: Int { books.reduce(0) { $0 + $1.pages } }  // typed key paths only
}

@Suite("Derived keys found by reading: the article's example")
struct FoundInputsArticleTests {
  @Test("display by string and totalPages by typed key path follow what their getters read")
  func articleExample() throws {
    let reader = Reader()
    let log = Log<String>()
    let display = try reader.observe("display", options: [.new]) { change in
      log.append("display \(change.newValue.map { "\($0 ?? "nil")" } ?? "none")")
    }
    let total = reader.observe(\.totalPages, options: [.new]) { _, change in
      log.append("totalPages \(change.newValue.map(String.init) ?? "none")")
    }
    reader.first = "Ann"
    reader.usesNickname = true
    reader.last = "ignored: not read on this branch"
    reader.nickname = "Annie"
    let book = Book(pages: 12)
    reader.mutableArrayValue(for: \.books).append(book)
    book.pages = 30
    #expect(
      log.all == [
        "display Ann ", "display ", "display Annie", "totalPages 12", "totalPages 30",
      ])
    display.invalidate()
    total.invalidate()
  }
}
