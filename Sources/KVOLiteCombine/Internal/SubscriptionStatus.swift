import KVOLiteLocking

/// Where an operator's subscription to its upstream stands.
@usableFromInline
enum SubscriptionStatus {
  case awaitingSubscription
  case subscribed(any Subscription)
  case terminal

  /// Takes `subscription` if none was taken yet; returns whether it did (a second subscription
  /// must be cancelled by the caller). Call with the owner's lock held.
  @inlinable
  mutating func accept(_ subscription: any Subscription) -> Bool {
    guard case .awaitingSubscription = self else { return false }
    self = .subscribed(subscription)
    return true
  }

  /// Whether there is a subscription, without copying it out (a copy of an existential costs a
  /// retain and a release on every value).
  @inlinable
  var isSubscribed: Bool {
    if case .subscribed = self { return true }
    return false
  }

  @inlinable
  var subscription: (any Subscription)? {
    if case .subscribed(let subscription) = self { return subscription }
    return nil
  }
}
