/// Combine's debugging hook: an object that, once enabled, is told of every subscription made
/// with `subscribe(_:)` and of every event, request and cancel that passes through it.
///
/// While any hook is enabled, `subscribe(_:)` wraps the subscriber, and the subscription it
/// gets, in taps that call the hooks before and after each call and forward it (the taps keep
/// the wrapped objects' identifiers and descriptions, as Combine's do); `receive(subscriber:)`
/// called directly is not seen. The hooks run on the thread of the call they report, outside
/// any KVOLite lock. Every method has an empty default; ``enable()`` and ``disable()`` add and
/// remove this object from the process-wide set of hooks (it is retained while enabled).
/// Thread-safe.
public protocol _Introspection: AnyObject {
  /// Called before `publisher.subscribe(subscriber)` attaches `subscriber`.
  func willReceive<Upstream: Publisher, Downstream: Subscriber>(
    publisher: Upstream, subscriber: Downstream
  ) where Upstream.Failure == Downstream.Failure, Upstream.Output == Downstream.Input
  /// Called after `publisher.subscribe(subscriber)` has attached `subscriber`.
  func didReceive<Upstream: Publisher, Downstream: Subscriber>(
    publisher: Upstream, subscriber: Downstream
  ) where Upstream.Failure == Downstream.Failure, Upstream.Output == Downstream.Input
  /// Called before `subscriber` receives `subscription`.
  func willReceive<Downstream: Subscriber>(subscriber: Downstream, subscription: any Subscription)
  /// Called after `subscriber` has received `subscription`.
  func didReceive<Downstream: Subscriber>(subscriber: Downstream, subscription: any Subscription)
  /// Called before `subscriber` receives `input`.
  func willReceive<Downstream: Subscriber>(subscriber: Downstream, input: Downstream.Input)
  /// Called after `subscriber` has received `input`, with the demand it answered.
  func didReceive<Downstream: Subscriber>(
    subscriber: Downstream, input: Downstream.Input, resultingDemand: Subscribers.Demand)
  /// Called before `subscriber` receives `completion`.
  func willReceive<Downstream: Subscriber>(
    subscriber: Downstream, completion: Subscribers.Completion<Downstream.Failure>)
  /// Called after `subscriber` has received `completion`.
  func didReceive<Downstream: Subscriber>(
    subscriber: Downstream, completion: Subscribers.Completion<Downstream.Failure>)
  /// Called before `subscription` is asked for `demand`.
  func willRequest(subscription: any Subscription, _ demand: Subscribers.Demand)
  /// Called after `subscription` was asked for `demand`.
  func didRequest(subscription: any Subscription, _ demand: Subscribers.Demand)
  /// Called before `subscription` is cancelled.
  func willCancel(subscription: any Subscription)
  /// Called after `subscription` was cancelled.
  func didCancel(subscription: any Subscription)
}

extension _Introspection {
  /// Does nothing.
  public func willReceive<Upstream: Publisher, Downstream: Subscriber>(
    publisher: Upstream, subscriber: Downstream
  ) where Upstream.Failure == Downstream.Failure, Upstream.Output == Downstream.Input {}
  /// Does nothing.
  public func didReceive<Upstream: Publisher, Downstream: Subscriber>(
    publisher: Upstream, subscriber: Downstream
  ) where Upstream.Failure == Downstream.Failure, Upstream.Output == Downstream.Input {}
  /// Does nothing.
  public func willReceive<Downstream: Subscriber>(
    subscriber: Downstream, subscription: any Subscription
  ) {}
  /// Does nothing.
  public func didReceive<Downstream: Subscriber>(
    subscriber: Downstream, subscription: any Subscription
  ) {}
  /// Does nothing.
  public func willReceive<Downstream: Subscriber>(subscriber: Downstream, input: Downstream.Input) {
  }
  /// Does nothing.
  public func didReceive<Downstream: Subscriber>(
    subscriber: Downstream, input: Downstream.Input, resultingDemand: Subscribers.Demand
  ) {}
  /// Does nothing.
  public func willReceive<Downstream: Subscriber>(
    subscriber: Downstream, completion: Subscribers.Completion<Downstream.Failure>
  ) {}
  /// Does nothing.
  public func didReceive<Downstream: Subscriber>(
    subscriber: Downstream, completion: Subscribers.Completion<Downstream.Failure>
  ) {}
  /// Does nothing.
  public func willRequest(subscription: any Subscription, _ demand: Subscribers.Demand) {}
  /// Does nothing.
  public func didRequest(subscription: any Subscription, _ demand: Subscribers.Demand) {}
  /// Does nothing.
  public func willCancel(subscription: any Subscription) {}
  /// Does nothing.
  public func didCancel(subscription: any Subscription) {}

  /// Starts reporting to this object (it is retained until ``disable()``).
  public func enable() { IntrospectionHooks.enable(self) }

  /// Stops reporting to this object.
  public func disable() { IntrospectionHooks.disable(self) }

  /// Whether this object is enabled.
  public var isEnabled: Bool { IntrospectionHooks.isEnabled(self) }
}
