// swift-format-ignore-file: AllPublicDeclarationsHaveDocumentation

// Test helpers: each type says what it is for; its members are named for what they do.
import KVOLiteCombine

/// One event a ``TrackingSubscriber`` saw, or a ``CustomSubscription`` was asked for.
public enum Event<Value: Equatable & Sendable>: Equatable, Sendable, CustomStringConvertible {
  case subscription
  case value(Value)
  case finished
  case failed(TestError)
  case requested(Subscribers.Demand)
  case cancelled

  public var description: String {
    switch self {
    case .subscription: "subscription"
    case .value(let value): "value(\(value))"
    case .finished: "finished"
    case .failed(let error): "failed(\(error))"
    case .requested(let demand): "requested(\(demand))"
    case .cancelled: "cancelled"
    }
  }
}

public struct TestError: Error, Equatable, Sendable, CustomStringConvertible {
  public let description: String
  public init(_ description: String = "oops") { self.description = description }
}

/// A subscriber that records everything in one history, shared with the subscription it gets
/// when that is a ``CustomSubscription``, so that one comparison covers values, completions,
/// requests and cancellations in order.
public final class TrackingSubscriber<Value: Equatable & Sendable, Failure: Error>: Subscriber,
  @unchecked Sendable
{
  public typealias Input = Value

  public let history: Log<Event<Value>>
  public private(set) var subscription: (any Subscription)?
  private let onSubscribe: (any Subscription) -> Void
  private let onValue: (Value) -> Subscribers.Demand
  private let onDeinit: () -> Void

  public init(
    history: Log<Event<Value>> = Log(),
    onSubscribe: @escaping (any Subscription) -> Void = { $0.request(.unlimited) },
    onValue: @escaping (Value) -> Subscribers.Demand = { _ in .none },
    onDeinit: @escaping () -> Void = {}
  ) {
    self.history = history
    self.onSubscribe = onSubscribe
    self.onValue = onValue
    self.onDeinit = onDeinit
  }

  deinit { onDeinit() }

  /// How the subscription it received describes itself ("Drop", "PassthroughSubject", …).
  public var subscriptionDescription: String? { subscription.map { String(describing: $0) } }

  public var events: [Event<Value>] { history.all }

  public func receive(subscription: any Subscription) {
    self.subscription = subscription
    history.append(.subscription)
    onSubscribe(subscription)
  }

  public func receive(_ input: Value) -> Subscribers.Demand {
    history.append(.value(input))
    return onValue(input)
  }

  public func receive(completion: Subscribers.Completion<Failure>) {
    switch completion {
    case .finished: history.append(.finished)
    case .failure(let error): history.append(.failed(error as? TestError ?? TestError("\(error)")))
    }
  }
}

/// A subscription that records the requests and cancellations it receives; it describes itself
/// as "CustomSubscription".
public final class CustomSubscription<Value: Equatable & Sendable>: Subscription,
  CustomStringConvertible, @unchecked Sendable
{
  public var description: String { "CustomSubscription" }
  public let history: Log<Event<Value>>
  public init(history: Log<Event<Value>>) { self.history = history }
  public func request(_ demand: Subscribers.Demand) { history.append(.requested(demand)) }
  public func cancel() { history.append(.cancelled) }
}

/// A publisher whose events the test sends by hand, to one subscriber at a time.
///
/// It hands its subscriber a ``CustomSubscription`` at once, or, when made with
/// `subscribesAtOnce: false`, only on ``sendSubscription()``, so that a test can send events
/// before the subscription.
public final class CustomPublisher<Value: Equatable & Sendable, Failure: Error>: Publisher,
  @unchecked Sendable
{
  public typealias Output = Value

  public let history: Log<Event<Value>>
  public let subscription: CustomSubscription<Value>
  private let subscribesAtOnce: Bool
  private var sendValue: ((Value) -> Subscribers.Demand)?
  private var sendCompletion: ((Subscribers.Completion<Failure>) -> Void)?
  private var sendSubscriptionTo: ((any Subscription) -> Void)?
  /// How the subscriber it got describes itself ("Map", "Drop", …).
  public private(set) var subscriberDescription: String?
  /// The subscriber's mirror's children, as `label: value` text.
  public private(set) var subscriberMirror: [String] = []
  /// The subscriber it got, as it got it.
  public private(set) var subscriber: Any?
  /// The subscriber, when it is also a subscription (an operator's inner object).
  public var subscriberAsSubscription: (any Subscription)? { subscriber as? any Subscription }

  public init(history: Log<Event<Value>>, subscribesAtOnce: Bool = true) {
    self.history = history
    subscription = CustomSubscription(history: history)
    self.subscribesAtOnce = subscribesAtOnce
  }

  public func receive<S: Subscriber>(subscriber: S) where S.Input == Value, S.Failure == Failure {
    sendValue = subscriber.receive
    sendCompletion = subscriber.receive(completion:)
    sendSubscriptionTo = subscriber.receive(subscription:)
    self.subscriber = subscriber
    subscriberDescription = String(describing: subscriber)
    subscriberMirror = Mirror(reflecting: subscriber).children.map {
      "\($0.label ?? ""): \($0.value)"
    }
    if subscribesAtOnce { sendSubscription() }
  }

  /// Hands the subscriber the subscription (again, if called twice).
  public func sendSubscription(_ other: (any Subscription)? = nil) {
    sendSubscriptionTo!(other ?? subscription)
  }

  /// Lets go of the subscriber.
  public func release() {
    sendValue = nil
    sendCompletion = nil
    sendSubscriptionTo = nil
    subscriber = nil
  }

  /// Sends a value and returns the demand the subscriber answered with (`.none` before any
  /// subscriber).
  @discardableResult
  public func send(_ value: Value) -> Subscribers.Demand { sendValue?(value) ?? .none }

  public func send(completion: Subscribers.Completion<Failure>) { sendCompletion?(completion) }
}
