/// Where an operator's subscription to its upstream stands.
enum SubscriptionStatus {
  case awaitingSubscription
  case subscribed(any Subscription)
  case terminal

  var subscription: (any Subscription)? {
    if case .subscribed(let subscription) = self { return subscription }
    return nil
  }
}
