import Foundation
import KVOLite
import KVOLiteTestSupport
import Observation
import Testing

/// Swift Observation's `withObservationTracking` over KVOLite models.
@Suite("Swift Observation tracking")
struct SwiftObservationTrackingTests {
  /// Tracks `read`, recording for each `onChange` the value `read` gives then (before the
  /// change, as Observation calls `onChange` from `willSet`).
  private static func track<Value: Sendable>(
    _ read: @escaping @Sendable () -> Value
  ) -> Log<Value> {
    let log = Log<Value>()
    withObservationTracking {
      _ = read()
    } onChange: {
      log.append(read())
    }
    return log
  }

  @Test("a set of a tracked property fires onChange once, before the value is stored")
  func set() {
    let shelf = TrackedShelf()
    let log = Self.track { shelf.title }
    shelf.title = "Poetry"
    shelf.title = "Prose"
    #expect(log.all == ["Shelf"])
    #expect(shelf.title == "Prose")
  }

  @Test("a set of a property that was not read fires nothing")
  func untouched() {
    let shelf = TrackedShelf()
    let log = Self.track { shelf.title }
    shelf.author = TrackedAuthor("Bo")
    shelf.books = [TrackedBook("A", pages: 1)]
    #expect(log.all.isEmpty)
  }

  @Test("key-value coding by name fires onChange")
  func keyValueCoding() throws {
    let shelf = TrackedShelf()
    let log = Self.track { shelf.title }
    try shelf.setValue("Poetry", forKey: "title")
    #expect(log.all == ["Shelf"])
    #expect(shelf.title == "Poetry")
  }

  @Test("a typed mutableArrayValue insertion fires onChange before the insertion")
  func typedProxy() {
    let shelf = TrackedShelf()
    let log = Self.track { shelf.books.count }
    shelf.mutableArrayValue(for: \.books).append(TrackedBook("A", pages: 3))
    #expect(log.all == [0])
    #expect(shelf.books.count == 1)
  }

  @Test("a mutableArrayValue(forKey:) removal fires onChange before the removal")
  func namedProxy() throws {
    let shelf = TrackedShelf()
    shelf.books = [TrackedBook("A", pages: 3), TrackedBook("B", pages: 4)]
    let log = Self.track { shelf.books.map(\.title) }
    try shelf.mutableArrayValue(forKey: "books").remove(at: 0)
    #expect(log.all == [["A", "B"]])
    #expect(shelf.books.map(\.title) == ["B"])
  }

  @Test("a derived key is tracked through the reads its getter makes: elements' keys")
  func derivedOverElements() {
    let shelf = TrackedShelf()
    let book = TrackedBook("A", pages: 3)
    shelf.books = [book, TrackedBook("B", pages: 4)]
    let log = Self.track { shelf.totalPages }
    book.pages = 10
    #expect(log.all == [7])
    #expect(shelf.totalPages == 14)
  }

  @Test("a to-one chain is tracked at each hop")
  func toOneChain() {
    let shelf = TrackedShelf()
    let first = shelf.author
    let log = Self.track { shelf.author.name }
    first.name = "Bo"
    #expect(log.all == ["Ann"])
    let again = Self.track { shelf.author.name }
    shelf.author = TrackedAuthor("Cy")
    #expect(again.all == ["Bo"])
  }

  @Test("a subclass's own and inherited properties are tracked through its root's conformance")
  func subclass() {
    let tool = TrackedTool()
    let log = Self.track { "\(tool.name) \(tool.weight)" }
    tool.weight = 2
    #expect(log.all == ["item 1"])
    let again = Self.track { "\(tool.name) \(tool.weight)" }
    tool.name = "hammer"
    #expect(again.all == ["item 2"])
  }

  @Test("a model that is not Observable is never tracked, and says so")
  func untracked() {
    let shelf = UntrackedShelf()
    let log = Self.track { shelf.title }
    shelf.title = "Poetry"
    #expect(log.all.isEmpty)
    #expect(!UntrackedShelf._tracksSwiftObservation)
    #expect(TrackedShelf._tracksSwiftObservation)
    #expect(TrackedTool._tracksSwiftObservation)
  }

  @Test("KVOLite's observers and Swift Observation both hear one set, KVOLite's after the store")
  func both() {
    let shelf = TrackedShelf()
    let events = Log<String>()
    let token = shelf.observe(\.title, options: [.new]) { _, change in
      events.append("kvo \(change.newValue!)")
    }
    withObservationTracking {
      _ = shelf.title
    } onChange: {
      events.append("onChange \(shelf.title)")
    }
    shelf.title = "Poetry"
    #expect(events.all == ["onChange Shelf", "kvo Poetry"])
    withExtendedLifetime(token) {}
  }

  @Test("Swift's @Observable classes work in a file that imports KVOLite")
  func swiftObservable() {
    let counter = SwiftOnlyCounter()
    let log = Self.track { counter.count }
    counter.count = 1
    #expect(log.all == [0])
  }

  @Test("a subclass that adds Observable below a root that is not stops at its first read")
  func lateConformance() async {
    let result = await #expect(
      processExitsWith: .failure, observing: [\.standardErrorContent]
    ) {
      _ = LateObservableItem().name
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(
      message.contains(
        "KVOLite: LateObservableItem conforms to Observable, but the class that adopts "
          + "KeyValueObservable above it does not"))
  }
}
