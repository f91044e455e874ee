import KVOLiteCombine
import KVOLiteTestSupport
import Synchronization
import Testing

/// Operators with several upstreams, fed from several threads at once: each subscriber is
/// called one event at a time, and nothing is lost.
@Suite("Combine compatibility: concurrent upstreams")
struct ConcurrentUpstreamTests {
  /// Counts values and notices calls that overlap.
  final class Monitor: @unchecked Sendable {
    let inside = Atomic<Int>(0)
    let overlaps = Counter()
    let values = Counter()

    func enter() {
      if inside.add(1, ordering: .acquiringAndReleasing).newValue > 1 { overlaps.increment() }
      values.increment()
      inside.subtract(1, ordering: .acquiringAndReleasing)
    }
  }

  static let rounds = 2_000

  @Test("merge: every value of every upstream, one call at a time")
  func merge() {
    let subjects = (0..<4).map { _ in PassthroughSubject<Int, Never>() }
    let monitor = Monitor()
    let cancellable = subjects[0].merge(with: subjects[1], subjects[2], subjects[3]).sink { _ in
      monitor.enter()
    }
    race(workers: 4) { worker in
      for round in 0..<Self.rounds { subjects[worker].send(round) }
    }
    #expect(monitor.overlaps.count == 0 && monitor.values.count == 4 * Self.rounds)
    _ = cancellable
  }

  @Test("zip: one tuple per round, one call at a time")
  func zip() {
    let a = PassthroughSubject<Int, Never>()
    let b = PassthroughSubject<Int, Never>()
    let monitor = Monitor()
    let cancellable = a.zip(b).sink { _ in monitor.enter() }
    let subjects = [a, b]
    race(workers: 2) { worker in
      for round in 0..<Self.rounds { subjects[worker].send(round) }
    }
    #expect(monitor.overlaps.count == 0 && monitor.values.count == Self.rounds)
    _ = cancellable
  }

  @Test("combineLatest: one call at a time, and the last combination is the last values")
  func combineLatest() {
    let a = PassthroughSubject<Int, Never>()
    let b = PassthroughSubject<Int, Never>()
    let monitor = Monitor()
    let last = Locked<(Int, Int)?>(nil)
    let cancellable = a.combineLatest(b).sink { value in
      monitor.enter()
      last.withLock { $0 = value }
    }
    a.send(-1)
    b.send(-1)
    let subjects = [a, b]
    race(workers: 2) { worker in
      for round in 0..<Self.rounds { subjects[worker].send(round) }
    }
    #expect(monitor.overlaps.count == 0)
    #expect(monitor.values.count >= Self.rounds)
    let final = last.withLock { $0 }
    #expect(final?.0 == Self.rounds - 1 || final?.1 == Self.rounds - 1)
    _ = cancellable
  }

  @Test(
    "share: subscribers attaching and cancelling while values flow; every live subscriber is called one at a time"
  )
  func share() {
    let subject = PassthroughSubject<Int, Never>()
    let shared = subject.share()
    let monitor = Monitor()
    let steady = shared.sink { _ in monitor.enter() }
    race(workers: 3) { worker in
      for round in 0..<Self.rounds {
        switch worker {
        case 0: subject.send(round)
        default: shared.sink { _ in }.cancel()
        }
      }
    }
    #expect(monitor.overlaps.count == 0 && monitor.values.count == Self.rounds)
    _ = steady
  }
}
