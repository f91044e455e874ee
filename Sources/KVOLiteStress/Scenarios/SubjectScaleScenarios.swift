import Foundation
import KVOLiteBridge
import KVOLiteTestSupport
import Synchronization

/// Many subscriptions to one subject, cancelled in random order while values are sent.
enum SubjectScaleScenarios {
  static var all: [StressScenario] { [randomCancels] }

  /// One subscriber of a subject, counting in order what it receives; some cancel themselves
  /// from inside a delivery.
  final class Member: Subscriber, @unchecked Sendable {
    typealias Input = Int
    typealias Failure = Never

    /// Cancels itself when it receives this value (never, for most).
    let cancelsAt: Int?
    private let state = Locked<(subscription: (any Subscription)?, last: Int, problems: Int)>(
      (nil, -1, 0))
    private let released: Counter

    init(cancelsAt: Int?, released: Counter) {
      self.cancelsAt = cancelsAt
      self.released = released
    }

    deinit { released.increment() }

    var problems: Int { state.withLock { $0.problems } }
    var last: Int { state.withLock { $0.last } }

    func receive(subscription: any Subscription) {
      state.withLock { $0.subscription = subscription }
      subscription.request(.unlimited)
    }

    func receive(_ input: Int) -> Subscribers.Demand {
      state.withLock { state in
        if input <= state.last { state.problems += 1 }
        state.last = input
      }
      if input == cancelsAt { cancel() }
      return .none
    }

    func receive(completion: Subscribers.Completion<Never>) {}

    func cancel() {
      let subscription = state.withLock { state in
        defer { state.subscription = nil }
        return state.subscription
      }
      subscription?.cancel()
    }
  }

  /// Up to 100,000 subscribers (one per iteration, at most 100,000) of one subject; two
  /// threads cancel them in a random order while a third sends increasing values and a fourth
  /// subscribes and cancels more; one in a hundred cancels itself from inside a delivery. Every
  /// subscriber sees increasing values (none twice, none out of order); the ones never
  /// cancelled see every value; after the cancels, a value reaches only them; every subscriber
  /// is released with its subscription, and the subject with its last subscription.
  static let randomCancels = StressScenario(
    name: "subjects: 100k subscriptions cancelled in random order, racing sends"
  ) { iterations in
    var report = StressReport()
    let count = min(100_000, iterations)
    let released = Counter()
    let extraMade = Counter()
    let problems = Counter()
    weak var weakSubject: PassthroughSubject<Int, Never>?
    do {
      let subject = PassthroughSubject<Int, Never>()
      weakSubject = subject
      var random = SeededGenerator(seed: 31_8)
      let members = (0..<count).map { index in
        Member(
          cancelsAt: index % 100 == 7 ? Int.random(in: 0..<1_000, using: &random) : nil,
          released: released)
      }
      for member in members { subject.subscribe(member) }
      // One in fifty is never cancelled from outside.
      let kept = members.enumerated().filter { $0.offset % 50 == 0 }.map(\.element)
      let cancelled = members.enumerated().filter { $0.offset % 50 != 0 }.map(\.element)
        .shuffled(using: &random)
      let halves = [
        Array(cancelled[..<(cancelled.count / 2)]),
        Array(cancelled[(cancelled.count / 2)...]),
      ]
      let cancelling = Atomic<Int>(2)
      let sent = Atomic<Int>(0)
      race(workers: 4) { worker in
        switch worker {
        case 0, 1:
          for member in halves[worker] { member.cancel() }
          cancelling.subtract(1, ordering: .releasing)
        case 2:
          var value = 0
          while cancelling.load(ordering: .acquiring) > 0 || value < 1_000 {
            subject.send(value)
            value += 1
          }
          sent.store(value, ordering: .releasing)
        default:
          while cancelling.load(ordering: .acquiring) > 0 {
            let extra = Member(cancelsAt: nil, released: released)
            extraMade.increment()
            subject.subscribe(extra)
            extra.cancel()
          }
        }
      }
      let total = sent.load(ordering: .acquiring)
      for member in members { problems.add(member.problems) }
      let keptComplete = kept.allSatisfy { $0.cancelsAt != nil || $0.last == total - 1 }
      report.check("a subscriber never cancelled missed values", keptComplete)
      subject.send(total)
      let reached = members.filter { $0.last == total }.count
      let expected = kept.filter { $0.cancelsAt == nil }.count
      report.expect("subscribers reached after the cancels", reached, expected)
      for member in kept { member.cancel() }
      report.count("values sent", total)
    }
    report.count("subscriptions", count + extraMade.count)
    report.expect("values out of order or repeated", problems.count, 0)
    report.expect("subscribers released", released.count, count + extraMade.count)
    report.check("the subject was released", weakSubject == nil)
    return report
  }
}
