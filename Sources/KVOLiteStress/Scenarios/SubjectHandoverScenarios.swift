import Foundation
import KVOLiteBridge
import KVOLiteTestSupport

/// A subject's completion racing a new subscriber: the subscriber must have its subscription
/// before its completion (issue 39's first find: the conduit was listed before its subscriber
/// had its subscription, so a completion on another thread could reach it first), and
/// `switchToLatest`, which checks that order and traps when it breaks, over inner subjects
/// that complete while it subscribes to them; and subscribers that cancel inside their
/// `receive(subscription:)` while the subject completes (issue 50: the completion held during
/// the handover reached them after their cancel).
enum SubjectHandoverScenarios {
  static var all: [StressScenario] {
    [subscribeRacingCompletion, switchToLatestOverCompletingSubjects, cancelInsideHandover]
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

  /// A subscriber that asks for everything and, if `cancelsInside`, cancels from inside its
  /// `receive(subscription:)`; it counts what it receives, and what comes after such a cancel
  /// when the subject was live (a subject that has completed hands a new subscriber an empty
  /// subscription and its completion, as Combine's does, whatever the subscriber does).
  final class HandoverProbe: Subscriber, @unchecked Sendable {
    typealias Input = Int
    typealias Failure = Never
    private struct State {
      var subscription: (any Subscription)?
      var cancelledInside = false
      var live = false
      var afterCancel = 0
      var values = 0
      var completions = 0
      var broken = false
    }
    private let state = Locked(State())
    let cancelsInside: Bool

    init(cancelsInside: Bool) { self.cancelsInside = cancelsInside }

    func receive(subscription: any Subscription) {
      let live = String(describing: subscription) != "Empty"
      state.withLock {
        $0.subscription = subscription
        $0.live = live
      }
      subscription.request(.unlimited)
      guard cancelsInside else { return }
      spin(Int.random(in: 0..<2048))  // a handover long enough for the sender to meet it
      subscription.cancel()
      state.withLock { $0.cancelledInside = live }
    }

    func receive(_ input: Int) -> Subscribers.Demand {
      state.withLock { state in
        if state.cancelledInside { state.afterCancel += 1 }
        if state.completions > 0 { state.broken = true }
        state.values += 1
      }
      return .none
    }

    func receive(completion: Subscribers.Completion<Never>) {
      state.withLock { state in
        if state.cancelledInside { state.afterCancel += 1 }
        if state.completions > 0 { state.broken = true }
        state.completions += 1
      }
    }

    /// Cancels from outside, once the probe has its subscription (or after a while without).
    func cancelFromOutside() {
      for _ in 0..<10_000 {
        if let subscription = state.withLock({ $0.subscription }) { return subscription.cancel() }
        sched_yield()
      }
    }

    /// Whether it cancelled inside the handover of a live subject's subscription; deliveries
    /// after that cancel; values and completions; and whether anything followed a completion.
    var outcome: (cancelledInside: Bool, afterCancel: Int, deliveries: Int, broken: Bool) {
      state.withLock {
        ($0.cancelledInside, $0.afterCancel, $0.values + $0.completions, $0.broken)
      }
    }
  }

  /// Each round, a new subject (a `PassthroughSubject` or a `CurrentValueSubject`, in turn):
  /// one thread subscribes four probes to it (the first and third cancel inside their
  /// `receive(subscription:)`), one sends 20 values then `.finished`, one cancels the second
  /// and fourth from outside. A probe that cancelled inside its `receive(subscription:)`
  /// receives nothing after; none receives anything after its completion.
  static let cancelInsideHandover = StressScenario(
    name: "subjects: a cancel inside receive(subscription:) racing send(completion:)"
  ) { iterations in
    var report = StressReport()
    let rounds = max(1, iterations / 10)
    let afterCancel = Counter()
    let cancelledInside = Counter()
    let broken = Counter()
    let outsideDeliveries = Counter()
    let steps = RoundBarrier(count: 3)
    let slot = Locked<
      (subject: (any Subject<Int, Never>)?, probes: [HandoverProbe], started: Bool)
    >(
      (nil, [], false))
    race(workers: 3) { worker in
      for round in 0..<rounds {
        if worker == 0 {
          let subject: any Subject<Int, Never> =
            round.isMultiple(of: 2)
            ? PassthroughSubject<Int, Never>() : CurrentValueSubject<Int, Never>(0)
          let probes = (0..<4).map { HandoverProbe(cancelsInside: $0.isMultiple(of: 2)) }
          slot.withLock { $0 = (subject, probes, false) }
          steps.arriveAndWait()
          for probe in probes {
            slot.withLock { $0.started = true }
            spin(Int.random(in: 0..<64))
            subject.subscribe(probe)
          }
          steps.arriveAndWait()
          for probe in probes {
            let (inside, late, deliveries, wasBroken) = probe.outcome
            if inside { cancelledInside.increment() }
            afterCancel.add(late)
            if wasBroken { broken.increment() }
            if !probe.cancelsInside { outsideDeliveries.add(deliveries) }
          }
          slot.withLock { $0 = (nil, [], false) }
        } else if worker == 1 {
          steps.arriveAndWait()
          let subject = slot.withLock { $0.subject }
          // The subscribing thread has begun: meet it somewhere among its four handovers.
          while !slot.withLock({ $0.started }) { sched_yield() }
          spin(Int.random(in: 0..<64))
          for value in 1...20 { subject?.send(value) }
          spin(Int.random(in: 0..<4096))
          subject?.send(completion: .finished)
          steps.arriveAndWait()
        } else {
          steps.arriveAndWait()
          let probes = slot.withLock { $0.probes }
          for probe in probes where !probe.cancelsInside {
            spin(Int.random(in: 0..<256))
            probe.cancelFromOutside()
          }
          steps.arriveAndWait()
        }
      }
    }
    report.count("rounds", rounds)
    report.count("cancels inside a live subject's handover", cancelledInside.count)
    report.count("deliveries to the probes cancelled from outside", outsideDeliveries.count)
    report.expect(
      "deliveries after a cancel inside receive(subscription:)", afterCancel.count, 0)
    report.expect("probes that received something after their completion", broken.count, 0)
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
