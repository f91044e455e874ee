/// A ``SubscriberTap`` of any type: what it wraps, as an `AnySubscriber`.
@usableFromInline
protocol SubscriberTapMarker {
  var erasedSubscriber: Any { get }
}

/// What `subscribe(_:)` attaches in place of the subscriber while an `_Introspection` hook is
/// enabled: it reports each event to the hooks, before and after handing it on, and hands the
/// subscriber a ``SubscriptionTap``. It has the subscriber's identifier and description.
@usableFromInline
struct SubscriberTap<Wrapped: Subscriber>: Subscriber, CustomStringConvertible,
  SubscriberTapMarker
{
  @usableFromInline typealias Input = Wrapped.Input
  @usableFromInline typealias Failure = Wrapped.Failure

  let subscriber: Wrapped

  @usableFromInline init(subscriber: Wrapped) { self.subscriber = subscriber }

  @usableFromInline var erasedSubscriber: Any { AnySubscriber(subscriber) }

  @usableFromInline var combineIdentifier: CombineIdentifier { subscriber.combineIdentifier }
  @usableFromInline var description: String { String(describing: subscriber) }

  @usableFromInline func receive(subscription: any Subscription) {
    let hooks = IntrospectionHooks.current
    let (original, tap) =
      if let tap = subscription as? SubscriptionTap {
        (tap.subscription, tap)
      } else {
        (subscription, SubscriptionTap(subscription: subscription))
      }
    for hook in hooks { hook.willReceive(subscriber: subscriber, subscription: original) }
    subscriber.receive(subscription: tap)
    for hook in hooks { hook.didReceive(subscriber: subscriber, subscription: original) }
  }

  @usableFromInline func receive(_ input: Input) -> Subscribers.Demand {
    let hooks = IntrospectionHooks.current
    for hook in hooks { hook.willReceive(subscriber: subscriber, input: input) }
    let demand = subscriber.receive(input)
    for hook in hooks {
      hook.didReceive(subscriber: subscriber, input: input, resultingDemand: demand)
    }
    return demand
  }

  @usableFromInline func receive(completion: Subscribers.Completion<Failure>) {
    let hooks = IntrospectionHooks.current
    for hook in hooks { hook.willReceive(subscriber: subscriber, completion: completion) }
    subscriber.receive(completion: completion)
    for hook in hooks { hook.didReceive(subscriber: subscriber, completion: completion) }
  }
}

/// The subscription a ``SubscriberTap`` hands its subscriber: it reports each request and
/// cancel to the hooks, before and after handing it on. It has the subscription's identifier
/// and description.
struct SubscriptionTap: Subscription, CustomStringConvertible {
  let subscription: any Subscription

  var combineIdentifier: CombineIdentifier { subscription.combineIdentifier }
  var description: String { String(describing: subscription) }

  func request(_ demand: Subscribers.Demand) {
    let hooks = IntrospectionHooks.current
    for hook in hooks { hook.willRequest(subscription: subscription, demand) }
    subscription.request(demand)
    for hook in hooks { hook.didRequest(subscription: subscription, demand) }
  }

  func cancel() {
    let hooks = IntrospectionHooks.current
    for hook in hooks { hook.willCancel(subscription: subscription) }
    subscription.cancel()
    for hook in hooks { hook.didCancel(subscription: subscription) }
  }
}
