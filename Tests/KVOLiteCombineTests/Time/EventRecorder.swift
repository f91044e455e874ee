import Dispatch
import KVOLiteCombine
import KVOLiteTestSupport

/// A subscriber for tests on real queues: it records its events as text (`"1"`, `"finished"`,
/// `"failure"`), in the order they arrive, from any thread, and signals its completion, so that
/// a test waits for it with a deadline instead of sleeping. It keeps its subscription until its
/// completion, as `sink` does.
final class EventRecorder<Input, Failure: Error>: Subscriber, @unchecked Sendable {
  // @unchecked: the events are behind `Locked`; the rest is immutable.
  private let recorded = Locked<(events: [String], subscription: (any Subscription)?)>(([], nil))
  private let completed = DispatchSemaphore(value: 0)
  private let onSubscribe: (any Subscription) -> Void

  /// A recorder that asks for `.unlimited`, or does what `onSubscribe` does with its
  /// subscription.
  init(onSubscribe: @escaping (any Subscription) -> Void = { $0.request(.unlimited) }) {
    self.onSubscribe = onSubscribe
  }

  /// The events so far, in order.
  var events: [String] { recorded.withLock { $0.events } }

  func receive(subscription: any Subscription) {
    recorded.withLock { $0.subscription = subscription }
    onSubscribe(subscription)
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    record("\(input)")
    return .none
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    let event: String
    switch completion {
    case .finished: event = "finished"
    case .failure: event = "failure"
    }
    let subscription = recorded.withLock { recorded in
      recorded.events.append(event)
      defer { recorded.subscription = nil }
      return recorded.subscription
    }
    withExtendedLifetime(subscription) {}
    completed.signal()
  }

  private func record(_ event: String) {
    recorded.withLock { $0.events.append(event) }
  }

  /// Waits until each of `recorders` has its completion, for a minute at most in all; returns
  /// whether they all had it.
  static func waitForCompletions(of recorders: [EventRecorder]) -> Bool {
    let deadline = DispatchTime.now() + .seconds(60)
    return recorders.allSatisfy { $0.completed.wait(timeout: deadline) == .success }
  }
}
