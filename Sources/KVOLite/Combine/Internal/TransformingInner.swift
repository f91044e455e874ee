/// The subscription of the operators that turn each upstream value into at most one downstream
/// value: `map`, `filter`, `compactMap`, `removeDuplicates`.
///
/// Downstream's requests pass straight up, and a value the transform drops is replaced by a
/// request for one more, so that downstream's demand is honoured exactly.
@usableFromInline
final class TransformingInner<Downstream: Subscriber, Input>: OperatorSubscription<Downstream>,
  Subscriber, @unchecked Sendable
{
  @usableFromInline typealias Failure = Downstream.Failure

  /// The downstream value for an upstream value, or `nil` to drop it.
  @usableFromInline let transform: (Input) -> Downstream.Input?

  @inlinable init(downstream: Downstream, transform: @escaping (Input) -> Downstream.Input?) {
    self.transform = transform
    super.init(downstream: downstream)
  }

  @inlinable func receive(subscription: any Subscription) { accept(subscription) }

  @inlinable func receive(_ input: Input) -> Subscribers.Demand {
    guard isSubscribed else { return .none }
    guard let output = transform(input) else { return .max(1) }
    return downstream.receive(output)
  }

  @inlinable func receive(completion: Subscribers.Completion<Failure>) { finish(completion) }
}
