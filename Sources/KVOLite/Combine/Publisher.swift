import Synchronization

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
  @inlinable
  public func subscribe<S: Subscriber>(_ subscriber: S) where S.Input == Output, S.Failure == Failure {
    receive(subscriber: subscriber)
  }
}

/// A namespace for publisher types, as in Combine.
public enum Publishers {}

/// A protocol that declares a type that can receive input from a publisher.
public protocol Subscriber<Input, Failure>: CustomCombineIdentifierConvertible {
  associatedtype Input
  associatedtype Failure: Error

  /// Called once, first, with the subscription to request values through.
  func receive(subscription: any Subscription)
  /// Called with a value; returns how many more values the subscriber wants, added to its
  /// current demand.
  func receive(_ input: Input) -> Subscribers.Demand
  /// Called at most once, last.
  func receive(completion: Subscribers.Completion<Failure>)
}

/// The connection between a publisher and a subscriber: Combine's `Subscription`.
public protocol Subscription: Cancellable, CustomCombineIdentifierConvertible {
  /// Asks for up to `demand` more values. Demands accumulate.
  func request(_ demand: Subscribers.Demand)
}

/// A unique identity for subscribers and subscriptions, as in Combine.
public struct CombineIdentifier: Hashable, Sendable, CustomStringConvertible {
  private let value: UInt

  /// A new, unique identifier (counted down from the top, away from object addresses).
  public init() {
    value = UInt.max - combineIdentifierCounter.add(1, ordering: .relaxed).newValue
  }

  /// The identifier of an object.
  public init(_ object: AnyObject) {
    value = UInt(bitPattern: ObjectIdentifier(object).hashValue)
  }

  public var description: String { "0x" + String(value, radix: 16) }
}

/// The source of fresh ``CombineIdentifier``s.
private let combineIdentifierCounter = Atomic<UInt>(0)

/// A type that has a ``CombineIdentifier``; classes get one from their identity.
public protocol CustomCombineIdentifierConvertible {
  var combineIdentifier: CombineIdentifier { get }
}

extension CustomCombineIdentifierConvertible where Self: AnyObject {
  public var combineIdentifier: CombineIdentifier { CombineIdentifier(self) }
}
