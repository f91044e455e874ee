import Foundation
import KVOLiteBridge
import KVOLiteTestSupport

/// A subscriber that checks what it receives: values `(source, index)` in order per source
/// (through a ``SequenceChecker``), at most one completion, nothing after it. It keeps its
/// subscription (as custom subscribers do), so it also tells whether a publisher lets it go.
final class RecordingSubscriber<Failure: Error>: Subscriber, @unchecked Sendable {
  typealias Input = (source: Int, index: Int)

  let sequences: SequenceChecker
  private let state = Locked<(subscription: (any Subscription)?, completions: Int, late: Int)>(
    (nil, 0, 0))
  private let initialDemand: Subscribers.Demand
  private let allowingGaps: Bool
  private let onDeinit: (@Sendable () -> Void)?

  init(
    sequences: SequenceChecker, demand: Subscribers.Demand = .unlimited,
    allowingGaps: Bool = false, onDeinit: (@Sendable () -> Void)? = nil
  ) {
    self.sequences = sequences
    initialDemand = demand
    self.allowingGaps = allowingGaps
    self.onDeinit = onDeinit
  }

  deinit { onDeinit?() }

  var subscription: (any Subscription)? { state.withLock { $0.subscription } }
  var completions: Int { state.withLock { $0.completions } }
  /// Values received after the completion.
  var lateValues: Int { state.withLock { $0.late } }

  func receive(subscription: any Subscription) {
    state.withLock { $0.subscription = subscription }
    if initialDemand > 0 { subscription.request(initialDemand) }
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    let completed = state.withLock { state in
      if state.completions > 0 { state.late += 1 }
      return state.completions > 0
    }
    if !completed {
      sequences.record(source: input.source, index: input.index, allowingGaps: allowingGaps)
    }
    return .none
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    state.withLock { $0.completions += 1 }
  }

  /// Cancels the subscription and lets it go.
  func cancel() {
    let subscription = state.withLock { state in
      defer { state.subscription = nil }
      return state.subscription
    }
    subscription?.cancel()
  }
}
