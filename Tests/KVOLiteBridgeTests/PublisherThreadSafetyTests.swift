import Foundation
import KVOLiteBridge
import KVOLiteTestSupport
import Synchronization
import Testing

@Suite("Publishers and KVO publishers under concurrency")
struct PublisherThreadSafetyTests {
  static let workers = 4
  static let rounds = 2_000

  @Test(
    "publishers: concurrent sends reach every subscriber exactly once; concurrent cancels are safe")
  func publishers() throws {
    let subject = PassthroughSubject<Int, Never>()
    let first = Counter()
    let second = Counter()
    let a = subject.map { $0 + 1 }.filter { $0 > 0 }.sink { _ in first.increment() }
    let b = subject.removeDuplicates(by: { _, _ in false }).sink { _ in second.increment() }
    race(workers: Self.workers) { worker in
      for round in 0..<Self.rounds { subject.send(worker * Self.rounds + round) }
    }
    #expect(first.count == Self.workers * Self.rounds)
    #expect(second.count == Self.workers * Self.rounds)
    let person = Person()
    let kvo = Counter()
    let cancellables = Locked<[AnyCancellable]>([])
    race(workers: Self.workers) { worker in
      for round in 0..<Self.rounds / 2 {
        switch worker {
        case 0:
          let cancellable = person.publisher(for: \.age).sink { _ in kvo.increment() }
          cancellables.withLock { $0.append(cancellable) }
        case 1: cancellables.withLock { $0.popLast() }?.cancel()
        default: person.age = round
        }
      }
    }
    cancellables.withLock { $0.removeAll() }
    #expect(person.observationRegistrar.triggerCount == 0)
    _ = (a, b)
  }
}

extension PublisherThreadSafetyTests {
  @Test("publisher(for:) calls its subscriber one call at a time, whichever threads set the key")
  func keyValuePublisherSerializesCalls() {
    let person = Person()
    let inside = Atomic<Int>(0)
    let overlaps = Counter()
    let count = Atomic<Int>(0)
    let overlapping = person.publisher(for: \.age).sink { _ in
      if inside.add(1, ordering: .acquiringAndReleasing).newValue > 1 { overlaps.increment() }
      spin(1_000)
      inside.subtract(1, ordering: .acquiringAndReleasing)
    }
    let scanning = person.publisher(for: \.age).scan(0) { calls, _ in
      spin(500)
      return calls + 1
    }.sink {
      if $0 > count.load(ordering: .relaxed) { count.store($0, ordering: .relaxed) }
    }
    race(workers: Self.workers) { _ in
      for round in 0..<Self.rounds { person.age = round }
    }
    #expect(overlaps.count == 0)
    // The initial value, then every set: `scan` lost none.
    #expect(count.load(ordering: .relaxed) == 1 + Self.workers * Self.rounds)
    _ = (overlapping, scanning)
  }
}
