import KVOLite
import Observation
import Testing

/// Swift Observation's `Observations` async sequence over a KVOLite model's derived key.
@Suite("Observations sequence")
struct ObservationsSequenceTests {
  @Test(
    "Observations { shelf.summary } yields the summary, then the new one after each change, whichever way it was made"
  )
  func summary() async throws {
    guard #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) else {
      return
    }
    let shelf = TrackedShelf()
    let summaries = Observations { shelf.summary }
    var iterator = summaries.makeAsyncIterator()
    var seen: [String?] = [await iterator.next()]
    shelf.title = "Poetry"
    seen.append(await iterator.next())
    try shelf.setValue("Prose", forKey: "title")
    seen.append(await iterator.next())
    shelf.mutableArrayValue(for: \.books).append(TrackedBook("A", pages: 3))
    seen.append(await iterator.next())
    shelf.books[0].pages = 5
    seen.append(await iterator.next())
    shelf.author.name = "Bo"
    seen.append(await iterator.next())
    #expect(
      seen == [
        "Shelf by Ann: 0 books, 0 pages",
        "Poetry by Ann: 0 books, 0 pages",
        "Prose by Ann: 0 books, 0 pages",
        "Prose by Ann: 1 books, 3 pages",
        "Prose by Ann: 1 books, 5 pages",
        "Prose by Bo: 1 books, 5 pages",
      ])
  }
}
