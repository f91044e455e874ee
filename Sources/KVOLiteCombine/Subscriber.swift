/// A protocol that declares a type that can receive input from a publisher.
public protocol Subscriber<Input, Failure>: CustomCombineIdentifierConvertible {
  /// The kind of values this subscriber receives.
  associatedtype Input
  /// The kind of errors this subscriber might receive.
  associatedtype Failure: Error

  /// Called once, first, with the subscription to request values through.
  func receive(subscription: any Subscription)
  /// Called with a value; returns how many more values the subscriber wants, added to its
  /// current demand.
  func receive(_ input: Input) -> Subscribers.Demand
  /// Called at most once, last.
  func receive(completion: Subscribers.Completion<Failure>)
}

extension Subscriber where Input == Void {
  /// Sends `()`: the value of a subscriber of `Void`. Returns the demand it answers with.
  public func receive() -> Subscribers.Demand { receive(()) }
}
