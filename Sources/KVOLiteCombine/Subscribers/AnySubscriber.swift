/// A type-erasing subscriber: Combine's `AnySubscriber`.
///
/// Made from a subscriber, it forwards every event to it and has its `combineIdentifier`,
/// description and mirror. Made from closures, it calls them (a missing value closure answers
/// `.none`) and describes itself as "Anonymous AnySubscriber". Made from a subject, it sends
/// what it receives into the subject (see ``Publisher/subscribe(_:)->_``). It retains
/// what it wraps.
@frozen
public struct AnySubscriber<Input, Failure: Error>: Subscriber, CustomStringConvertible,
  CustomReflectable,
  CustomPlaygroundDisplayConvertible
{
  @usableFromInline let box: AnySubscriberBox<Input, Failure>

  /// The wrapped subscriber's identifier, or a new one.
  public let combineIdentifier: CombineIdentifier

  /// Wraps `subscriber`.
  @inlinable
  public init<S: Subscriber>(_ subscriber: S) where S.Input == Input, S.Failure == Failure {
    if let erased = subscriber as? AnySubscriber<Input, Failure> {
      self = erased
      return
    }
    combineIdentifier = subscriber.combineIdentifier
    box = AnySubscriberBox(
      subscription: subscriber.receive(subscription:), value: subscriber.receive(_:),
      completion: subscriber.receive(completion:), description: { String(describing: subscriber) },
      mirror: {
        (subscriber as? any CustomReflectable)?.customMirror ?? Mirror(subscriber, children: [:])
      })
  }

  /// Wraps `subject`: values and the completion are sent into it, and its upstream
  /// subscription is handed to it.
  public init<S: Subject>(_ subject: S) where S.Output == Input, S.Failure == Failure {
    self.init(SubjectSubscriber(subject))
  }

  /// A subscriber made of closures; a missing closure ignores its event (a missing value
  /// closure answers `.none`).
  public init(
    receiveSubscription: ((any Subscription) -> Void)? = nil,
    receiveValue: ((Input) -> Subscribers.Demand)? = nil,
    receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)? = nil
  ) {
    combineIdentifier = CombineIdentifier()
    box = AnySubscriberBox(
      subscription: { receiveSubscription?($0) }, value: { receiveValue?($0) ?? .none },
      completion: { receiveCompletion?($0) }, description: { "Anonymous AnySubscriber" },
      mirror: { Mirror(reflecting: "Anonymous AnySubscriber") })
  }

  /// Passes `subscription` to the wrapped subscriber.
  @inlinable public func receive(subscription: any Subscription) { box.subscription(subscription) }
  /// Passes `input` to the wrapped subscriber and returns the demand it adds.
  @inlinable public func receive(_ input: Input) -> Subscribers.Demand { box.value(input) }
  /// Passes `completion` to the wrapped subscriber.
  @inlinable public func receive(completion: Subscribers.Completion<Failure>) {
    box.completion(completion)
  }

  /// The name Combine gives this subscriber.
  public var description: String { box.description() }
  /// As Combine's: the wrapped subscriber's custom mirror, or a mirror of it with no children
  /// when it has none; made from closures, the mirror of its description, a `String`.
  public var customMirror: Mirror { box.mirror() }
  /// The same as ``description``.
  public var playgroundDescription: Any { description }
}

/// The closures of an ``AnySubscriber``.
@usableFromInline
final class AnySubscriberBox<Input, Failure: Error>: @unchecked Sendable {
  // @unchecked: immutable after init.
  @usableFromInline let subscription: (any Subscription) -> Void
  @usableFromInline let value: (Input) -> Subscribers.Demand
  @usableFromInline let completion: (Subscribers.Completion<Failure>) -> Void
  @usableFromInline let description: () -> String
  @usableFromInline let mirror: () -> Mirror

  @usableFromInline init(
    subscription: @escaping (any Subscription) -> Void,
    value: @escaping (Input) -> Subscribers.Demand,
    completion: @escaping (Subscribers.Completion<Failure>) -> Void,
    description: @escaping () -> String,
    mirror: @escaping () -> Mirror
  ) {
    self.subscription = subscription
    self.value = value
    self.completion = completion
    self.description = description
    self.mirror = mirror
  }
}
