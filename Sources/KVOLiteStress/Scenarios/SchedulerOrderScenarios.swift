import Dispatch
import Foundation
import KVOLiteBridge
import KVOLiteTestSupport

/// Every operator that hops schedulers, on a concurrent `DispatchQueue` and an `OperationQueue`
/// running several operations at once (issue 50's first find: a value overtaken by its
/// completion on `DispatchQueue.global()`, then dropped): many subscriptions at once, each of
/// which must see its values in order, each before its completion; and `subscribe(on:)`,
/// whose upstream must get the requests and the cancel in the order they were made.
enum SchedulerOrderScenarios {
  static var all: [StressScenario] { [hoppingOperators] }

  /// A subscriber that checks one run: values 1, 2, … in order, then one completion, nothing
  /// after. It keeps its subscription until its completion, as `sink` does, and signals it.
  final class RunChecker: Subscriber, @unchecked Sendable {
    typealias Input = Int
    typealias Failure = Never
    private let state = Locked<(next: Int, wrong: Bool, done: Bool, kept: (any Subscription)?)>(
      (1, false, false, nil))
    private let completed: DispatchSemaphore
    private let expected: Int

    init(expecting expected: Int, completed: DispatchSemaphore) {
      self.expected = expected
      self.completed = completed
    }

    /// Whether the run saw anything but its values in order, then its completion.
    var wrong: Bool { state.withLock { $0.wrong || !$0.done } }

    func receive(subscription: any Subscription) {
      state.withLock { $0.kept = subscription }
      subscription.request(.unlimited)
    }

    func receive(_ input: Int) -> Subscribers.Demand {
      state.withLock { state in
        if state.done || input != state.next { state.wrong = true }
        state.next = input + 1
      }
      return .none
    }

    func receive(completion: Subscribers.Completion<Never>) {
      let kept = state.withLock { state in
        if state.done || state.next != expected + 1 { state.wrong = true }
        state.done = true
        defer { state.kept = nil }
        return state.kept
      }
      withExtendedLifetime(kept) {}
      completed.signal()
    }
  }

  static let operations: OperationQueue = {
    let queue = OperationQueue()
    queue.maxConcurrentOperationCount = 4
    return queue
  }()

  /// Each operator, and how a run attaches a checker to it and sends its values (how many).
  static var operators: [(name: String, values: Int, attach: (RunChecker) -> Void)] {
    let global = DispatchQueue.global()
    let three = [1, 2, 3].publisher
    /// A subject that sends `values` after the checker attached, then finishes.
    func sending(_ values: Int, _ attach: (PassthroughSubject<Int, Never>) -> Void) {
      let subject = PassthroughSubject<Int, Never>()
      attach(subject)
      for value in 1...values { subject.send(value) }
      subject.send(completion: .finished)
    }
    return [
      ("receive(on:) a global queue", 3, { three.receive(on: global).subscribe($0) }),
      ("receive(on:) an operation queue", 3, { three.receive(on: operations).subscribe($0) }),
      (
        "delay on a global queue", 1,
        { Just(1).delay(for: .milliseconds(1), scheduler: global).subscribe($0) }
      ),
      (
        "delay on an operation queue", 3,
        { three.delay(for: .milliseconds(1), scheduler: operations).subscribe($0) }
      ),
      (
        "timeout on a global queue", 3,
        { three.timeout(.seconds(60), scheduler: global).subscribe($0) }
      ),
      (
        "throttle on a global queue", 1,
        { checker in
          sending(1) {
            $0.throttle(for: .seconds(60), scheduler: global, latest: true).subscribe(checker)
          }
        }
      ),
      (
        "collect(.byTimeOrCount) on a global queue", 6,
        { checker in
          sending(6) {
            $0.collect(.byTimeOrCount(global, .microseconds(1), 2)).flatMap(\.publisher).subscribe(
              checker)
          }
        }
      ),
      (
        "measureInterval on a global queue", 3,
        { three.measureInterval(using: global).scan(0) { count, _ in count + 1 }.subscribe($0) }
      ),
    ]
  }

  /// Each operator in turn: `iterations / 20` runs (at least 100) made at once, each checked.
  static let hoppingOperators = StressScenario(
    name: "operators: each subscription's events in order on a concurrent queue"
  ) { iterations in
    var report = StressReport()
    let runs = max(100, iterations / 20)
    for (name, values, attach) in operators {
      let completed = DispatchSemaphore(value: 0)
      let checkers = (0..<runs).map { _ in RunChecker(expecting: values, completed: completed) }
      for checker in checkers { attach(checker) }
      let deadline = DispatchTime.now() + .seconds(120)
      let finished = (0..<runs).allSatisfy { _ in completed.wait(timeout: deadline) == .success }
      report.check("\(name): timed out waiting for the completions", finished)
      report.count("\(name) runs", runs)
      report.expect("\(name): runs out of order, short or late", checkers.count { $0.wrong }, 0)
    }
    let cancels = DispatchSemaphore(value: 0)
    let upstreams = (0..<runs).map { _ in LoggingUpstream(cancelled: cancels) }
    for upstream in upstreams {
      upstream.subscribe(on: DispatchQueue.global()).subscribe(
        AnySubscriber<Int, Never>(receiveSubscription: { subscription in
          for demand in 1...8 { subscription.request(.max(demand)) }
          subscription.cancel()
        }))
    }
    let deadline = DispatchTime.now() + .seconds(120)
    let cancelled = (0..<runs).allSatisfy { _ in cancels.wait(timeout: deadline) == .success }
    report.check("subscribe(on:): timed out waiting for the cancels", cancelled)
    report.count("subscribe(on:) runs", runs)
    let inOrder = Array(1...8) + [0]
    report.expect(
      "subscribe(on:): runs whose requests and cancel reached upstream out of order",
      upstreams.count { $0.log.withLock { $0 } != inOrder }, 0)
    return report
  }

  /// A publisher whose subscription logs what it is asked for (each request's count, 0 for
  /// the cancel), and signals the cancel. It sends nothing.
  final class LoggingUpstream: Publisher, Subscription, @unchecked Sendable {
    // @unchecked: the log is behind `Locked`.
    typealias Output = Int
    typealias Failure = Never
    let log = Locked<[Int]>([])
    private let cancelled: DispatchSemaphore

    init(cancelled: DispatchSemaphore) { self.cancelled = cancelled }

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
      subscriber.receive(subscription: self)
    }

    func request(_ demand: Subscribers.Demand) { log.withLock { $0.append(demand.max ?? -1) } }

    func cancel() {
      log.withLock { $0.append(0) }
      cancelled.signal()
    }
  }
}
