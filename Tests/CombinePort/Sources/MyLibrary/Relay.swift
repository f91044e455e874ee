import Combine

/// A relay as a real library writes one against Apple's Combine: `Combine.`-qualified names,
/// a subscription of its own, and a subject underneath.
public final class Relay<Output>: Publisher, @unchecked Sendable {
  /// A relay never fails.
  public typealias Failure = Never

  private let subject: CurrentValueSubject<Output, Never>

  /// A relay holding `value`.
  public init(_ value: Output) {
    subject = CurrentValueSubject(value)
  }

  /// The value last accepted.
  public var value: Output { subject.value }

  /// Sends `value` to every subscriber.
  public func accept(_ value: Output) { subject.send(value) }

  /// Attaches `subscriber` to the subject underneath.
  public func receive<S: Combine.Subscriber>(subscriber: S)
  where S.Input == Output, S.Failure == Never {
    subject.subscribe(subscriber)
  }
}

/// A subscriber written with `Combine.`-qualified names throughout.
public final class Collector<Input>: Combine.Subscriber, Combine.Cancellable,
  @unchecked Sendable
{
  /// A collector never fails.
  public typealias Failure = Never

  /// The values received, in order.
  public private(set) var values: [Input] = []
  private var subscription: (any Combine.Subscription)?

  /// A collector with nothing collected.
  public init() {}

  /// Keeps `subscription` and asks for everything.
  public func receive(subscription: any Combine.Subscription) {
    self.subscription = subscription
    subscription.request(.unlimited)
  }

  /// Collects `input`.
  public func receive(_ input: Input) -> Combine.Subscribers.Demand {
    values.append(input)
    return .none
  }

  /// Ignores the completion.
  public func receive(completion: Combine.Subscribers.Completion<Never>) {}

  /// Cancels the subscription.
  public func cancel() { subscription?.cancel() }
}
