import Foundation
import KVOLiteBridge
import KVOLiteTestSupport

/// A subject's completion racing a new subscriber: the subscriber must have its subscription
/// before its completion (issue 39's first find: the conduit was listed before its subscriber
/// had its subscription, so a completion on another thread could reach it first), and
/// `switchToLatest`, which checks that order and traps when it breaks, over inner subjects
/// that complete while it subscribes to them.
enum SubjectHandoverScenarios {
  static var all: [StressScenario] {
    [subscribeRacingCompletion, switchToLatestOverCompletingSubjects]
  }

  /// A subscriber that records, in order, whether its completion came before its
  /// subscription.
  final class OrderSubscriber: Subscriber, @unchecked Sendable {
    typealias Input = Int
    typealias Failure = Never
    private let state = Locked<(subscribed: Bool, completions: Int, early: Bool)>((false, 0, false))

    func receive(subscription: any Subscription) {
      state.withLock { $0.subscribed = true }
      subscription.request(.unlimited)
    }

    func receive(_ input: Int) -> Subscribers.Demand {
      state.withLock { if !$0.subscribed { $0.early = true } }
      return .none
    }

    func receive(completion: Subscribers.Completion<Never>) {
      state.withLock {
        if !$0.subscribed { $0.early = true }
        $0.completions += 1
      }
    }

    /// Whether an event came before the subscription, and how many completions came.
    var outcome: (early: Bool, completions: Int) { state.withLock { ($0.early, $0.completions) } }
  }

  /// Each round, a new subject (a `PassthroughSubject` or a `CurrentValueSubject`, in turn):
  /// one thread subscribes to it while another completes it. The subscriber must get its
  /// subscription first and exactly one completion.
  static let subscribeRacingCompletion = StressScenario(
    name: "subjects: subscribe racing send(completion:)"
  ) { iterations in
    var report = StressReport()
    let rounds = max(1, iterations / 2)
    let early = Counter()
    let badCompletions = Counter()
    let steps = RoundBarrier(count: 2)
    let slot = Locked<(any Subject<Int, Never>)?>(nil)
    race(workers: 2) { worker in
      for round in 0..<rounds {
        if worker == 0 {
          let subject: any Subject<Int, Never> =
            round.isMultiple(of: 2)
            ? PassthroughSubject<Int, Never>() : CurrentValueSubject<Int, Never>(0)
          slot.withLock { $0 = subject }
          let subscriber = OrderSubscriber()
          steps.arriveAndWait()
          spin(Int.random(in: 0..<64))
          subject.subscribe(subscriber)
          steps.arriveAndWait()
          let (wasEarly, completions) = subscriber.outcome
          if wasEarly { early.increment() }
          if completions != 1 { badCompletions.increment() }
          slot.withLock { $0 = nil }
        } else {
          steps.arriveAndWait()
          let subject = slot.withLock { $0 }
          spin(Int.random(in: 0..<64))
          subject?.send(completion: .finished)
          steps.arriveAndWait()
        }
      }
    }
    report.count("subscriptions", rounds)
    report.expect("completions or values before the subscription", early.count, 0)
    report.expect("subscribers without exactly one completion", badCompletions.count, 0)
    return report
  }

  /// An outer subject sends inner subjects to `switchToLatest` while another thread completes
  /// each inner subject as soon as it is sent: `switchToLatest` subscribes to an inner subject
  /// as it completes, and traps if the completion comes before the subscription. Every value
  /// sent before an inner subject completes reaches the subscriber, in order; it finishes
  /// once the outer subject and the last inner one have.
  static let switchToLatestOverCompletingSubjects = StressScenario(
    name: "operators: switchToLatest over inner subjects that complete"
  ) { iterations in
    var report = StressReport()
    let rounds = max(1, iterations / 4)
    let outer = PassthroughSubject<PassthroughSubject<Int, Never>, Never>()
    let received = Counter()
    let completions = Counter()
    let cancellable = outer.switchToLatest().sink(
      receiveCompletion: { _ in completions.increment() },
      receiveValue: { _ in received.increment() })
    let steps = RoundBarrier(count: 2)
    let slot = Locked<PassthroughSubject<Int, Never>?>(nil)
    race(workers: 2) { worker in
      for _ in 0..<rounds {
        if worker == 0 {
          let inner = PassthroughSubject<Int, Never>()
          slot.withLock { $0 = inner }
          steps.arriveAndWait()
          outer.send(inner)
          steps.arriveAndWait()
        } else {
          steps.arriveAndWait()
          slot.withLock { $0 }?.send(completion: .finished)
          steps.arriveAndWait()
        }
      }
    }
    outer.send(completion: .finished)
    report.count("inner subjects", rounds)
    report.expect("values (none sent)", received.count, 0)
    report.expect("completions", completions.count, 1)
    cancellable.cancel()
    return report
  }

  /// Busy-waits about `steps` short steps, to spread where two racing threads meet.
  @inline(never)
  static func spin(_ steps: Int) {
    var value = 0
    for step in 0..<steps { value = value &* 31 &+ step }
    sink(value)
  }

  /// Keeps the optimizer from removing a computation.
  @inline(never)
  static func sink(_ value: Int) {
    if value == .min { print(value) }
  }
}
