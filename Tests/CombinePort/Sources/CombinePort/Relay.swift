import Combine

/// A relay as a real library writes one against Apple's Combine: `Combine.`-qualified names,
/// a subscription of its own, and a subject underneath.
final class Relay<Output>: Publisher, @unchecked Sendable {
  typealias Failure = Never

  private let subject: CurrentValueSubject<Output, Never>

  init(_ value: Output) {
    subject = CurrentValueSubject(value)
  }

  var value: Output { subject.value }

  func accept(_ value: Output) { subject.send(value) }

  func receive<S: Combine.Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
    subject.subscribe(subscriber)
  }
}

/// A subscriber written with `Combine.`-qualified names throughout.
final class Collector<Input>: Combine.Subscriber, Combine.Cancellable, @unchecked Sendable {
  typealias Failure = Never

  private(set) var values: [Input] = []
  private var subscription: (any Combine.Subscription)?

  func receive(subscription: any Combine.Subscription) {
    self.subscription = subscription
    subscription.request(.unlimited)
  }

  func receive(_ input: Input) -> Combine.Subscribers.Demand {
    values.append(input)
    return .none
  }

  func receive(completion: Combine.Subscribers.Completion<Never>) {}

  func cancel() { subscription?.cancel() }
}
