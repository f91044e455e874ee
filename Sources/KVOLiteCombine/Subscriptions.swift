/// A namespace for subscriptions, as in Combine.
public enum Subscriptions {
  /// A subscription that does nothing: requests and cancellation are ignored. What a publisher
  /// that has already completed hands a new subscriber before its completion.
  public static var empty: any Subscription { EmptySubscription.shared }
}

/// The subscription of ``Subscriptions/empty``: describes itself as "Empty".
@usableFromInline
final class EmptySubscription: Subscription, CustomStringConvertible, CustomReflectable,
  CustomPlaygroundDisplayConvertible, Sendable
{
  @usableFromInline static let shared = EmptySubscription()
  @inlinable init() {}
  @inlinable func request(_ demand: Subscribers.Demand) {}
  @inlinable func cancel() {}
  @usableFromInline var description: String { "Empty" }
  @usableFromInline var customMirror: Mirror { Mirror(self, children: [:]) }
  @usableFromInline var playgroundDescription: Any { description }
}
