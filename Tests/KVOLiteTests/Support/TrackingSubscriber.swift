import KVOLite

/// One event a ``TrackingSubscriber`` saw, or a ``CustomSubscription`` was asked for.
enum Event<Value: Equatable & Sendable>: Equatable, Sendable, CustomStringConvertible {
  case subscription
  case value(Value)
  case finished
  case failed(TestError)
  case requested(Subscribers.Demand)
  case cancelled

  var description: String {
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

struct TestError: Error, Equatable, Sendable, CustomStringConvertible {
  let description: String
  init(_ description: String = "oops") { self.description = description }
}

/// A subscriber that records everything in one history, shared with the subscription it gets
/// when that is a ``CustomSubscription``, so that one comparison covers values, completions,
/// requests and cancellations in order.
final class TrackingSubscriber<Value: Equatable & Sendable, Failure: Error>: Subscriber,
  @unchecked Sendable
{
  typealias Input = Value

  let history: Log<Event<Value>>
  private(set) var subscription: (any Subscription)?
  private let onSubscribe: (any Subscription) -> Void
  private let onValue: (Value) -> Subscribers.Demand
  private let onDeinit: () -> Void

  init(
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
  var subscriptionDescription: String? { subscription.map { String(describing: $0) } }

  var events: [Event<Value>] { history.all }

  func receive(subscription: any Subscription) {
    self.subscription = subscription
    history.append(.subscription)
    onSubscribe(subscription)
  }

  func receive(_ input: Value) -> Subscribers.Demand {
    history.append(.value(input))
    return onValue(input)
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    switch completion {
    case .finished: history.append(.finished)
    case .failure(let error): history.append(.failed(error as? TestError ?? TestError("\(error)")))
    }
  }
}

/// A subscription that records the requests and cancellations it receives.
final class CustomSubscription<Value: Equatable & Sendable>: Subscription, @unchecked Sendable {
  let history: Log<Event<Value>>
  init(history: Log<Event<Value>>) { self.history = history }
  func request(_ demand: Subscribers.Demand) { history.append(.requested(demand)) }
  func cancel() { history.append(.cancelled) }
}

/// A publisher whose events the test sends by hand, to one subscriber at a time.
///
/// It hands its subscriber a ``CustomSubscription`` at once, or, when made with
/// `subscribesAtOnce: false`, only on ``sendSubscription()``, so that a test can send events
/// before the subscription.
final class CustomPublisher<Value: Equatable & Sendable, Failure: Error>: Publisher,
  @unchecked Sendable
{
  typealias Output = Value

  let history: Log<Event<Value>>
  let subscription: CustomSubscription<Value>
  private let subscribesAtOnce: Bool
  private var sendValue: ((Value) -> Subscribers.Demand)?
  private var sendCompletion: ((Subscribers.Completion<Failure>) -> Void)?
  private var sendSubscriptionTo: ((any Subscription) -> Void)?
  /// How the subscriber it got describes itself ("Map", "Drop", …).
  private(set) var subscriberDescription: String?
  /// The subscriber's mirror's children, as `label: value` text.
  private(set) var subscriberMirror: [String] = []

  init(history: Log<Event<Value>>, subscribesAtOnce: Bool = true) {
    self.history = history
    subscription = CustomSubscription(history: history)
    self.subscribesAtOnce = subscribesAtOnce
  }

  func receive<S: Subscriber>(subscriber: S) where S.Input == Value, S.Failure == Failure {
    sendValue = subscriber.receive
    sendCompletion = subscriber.receive(completion:)
    sendSubscriptionTo = subscriber.receive(subscription:)
    subscriberDescription = String(describing: subscriber)
    subscriberMirror = Mirror(reflecting: subscriber).children.map {
      "\($0.label ?? ""): \($0.value)"
    }
    if subscribesAtOnce { sendSubscription() }
  }

  /// Hands the subscriber the subscription (again, if called twice).
  func sendSubscription(_ other: (any Subscription)? = nil) {
    sendSubscriptionTo!(other ?? subscription)
  }

  /// Lets go of the subscriber.
  func release() {
    sendValue = nil
    sendCompletion = nil
    sendSubscriptionTo = nil
  }

  /// Sends a value and returns the demand the subscriber answered with.
  @discardableResult
  func send(_ value: Value) -> Subscribers.Demand { sendValue!(value) }

  func send(completion: Subscribers.Completion<Failure>) { sendCompletion!(completion) }
}
