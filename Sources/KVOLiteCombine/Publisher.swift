/// Declares that a type can transmit a sequence of values over time: Combine's `Publisher`.
///
/// A publisher delivers values to one or more ``Subscriber``s, within the demand they signal
/// through their ``Subscription``, followed by at most one completion. Code written against
/// Combine's names compiles against KVOLite by changing the import.
public protocol Publisher<Output, Failure> {
  /// The kind of values published.
  associatedtype Output
  /// The kind of errors this publisher might publish.
  associatedtype Failure: Error

  /// Attaches `subscriber`: the publisher calls its `receive(subscription:)` once, then
  /// delivers values within its demand, then at most one completion.
  func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure
}

extension Publisher {
  /// Attaches `subscriber` (the spelling user code uses; `receive(subscriber:)` is the hook).
  ///
  /// While an `_Introspection` hook is enabled, the hooks are told before and after, and the
  /// subscriber is attached wrapped in a tap that reports its events (as in Combine).
  @inlinable
  public func subscribe<S: Subscriber>(_ subscriber: S)
  where S.Input == Output, S.Failure == Failure {
    guard IntrospectionHooks.isActive else { return receive(subscriber: subscriber) }
    subscribeReporting(subscriber)
  }

  /// `subscribe(_:)` while hooks are enabled.
  @usableFromInline
  func subscribeReporting<S: Subscriber>(_ subscriber: S)
  where S.Input == Output, S.Failure == Failure {
    let hooks = IntrospectionHooks.current
    if let tap = subscriber as? any SubscriberTapMarker {
      // Already a tap (passed on as it is, by a type eraser for one): report the subscriber it
      // wraps, erased, and attach the tap as it is.
      let wrapped = tap.erasedSubscriber as! AnySubscriber<S.Input, S.Failure>
      for hook in hooks { hook.willReceive(publisher: self, subscriber: wrapped) }
      receive(subscriber: subscriber)
      for hook in hooks { hook.didReceive(publisher: self, subscriber: wrapped) }
    } else {
      for hook in hooks { hook.willReceive(publisher: self, subscriber: subscriber) }
      receive(subscriber: SubscriberTap(subscriber: subscriber))
      for hook in hooks { hook.didReceive(publisher: self, subscriber: subscriber) }
    }
  }
}
