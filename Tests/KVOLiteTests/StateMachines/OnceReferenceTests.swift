import KVOLiteLocking
import KVOLiteTestSupport
import Synchronization
import Testing

/// `OnceReference`: stored once, the first store kept, released with the reference.
@Suite("Once references", .serialized)
struct OnceReferenceTests {
  final class Counted: @unchecked Sendable {
    static let alive = Atomic<Int>(0)
    let id: Int
    init(_ id: Int) {
      self.id = id
      Self.alive.add(1, ordering: .relaxed)
    }
    deinit { Self.alive.subtract(1, ordering: .relaxed) }
  }

  final class Owner: @unchecked Sendable {
    let reference = OnceReference<Counted>()
  }

  @Test("empty, then the first store is kept and a later one is not")
  func firstStoreWins() {
    let before = Counted.alive.load(ordering: .relaxed)
    do {
      let owner = Owner()
      #expect(owner.reference.load() == nil)
      let first = Counted(1)
      #expect(owner.reference.storeIfNil(first) === first)
      #expect(owner.reference.storeIfNil(Counted(2)).id == 1)
      #expect(owner.reference.load() === first)
    }
    // The kept object is released with its owner, the refused one at once.
    #expect(Counted.alive.load(ordering: .relaxed) == before)
  }

  @Test("threads storing at once all get the one object kept, and nothing leaks")
  func racingStores() {
    let before = Counted.alive.load(ordering: .relaxed)
    for round in 0..<200 {
      let owner = Owner()
      let seen = Log<Int>()
      race(workers: 2) { worker in
        seen.append(owner.reference.storeIfNil(Counted(round * 2 + worker)).id)
      }
      let kept = owner.reference.load()?.id
      #expect(kept != nil && seen.all == [kept!, kept!])
    }
    #expect(Counted.alive.load(ordering: .relaxed) == before)
  }
}
