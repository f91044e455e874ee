/// A type-erased publisher, to hide the operator types of a chain from an API. Describes itself
/// as "AnyPublisher", as Combine's does.
public struct AnyPublisher<Output, Failure: Error>: Publisher, CustomStringConvertible,
  CustomPlaygroundDisplayConvertible
{
  private let box: AnyPublisherBox<Output, Failure>

  /// Wraps `publisher`.
  public init<P: Publisher>(_ publisher: P) where P.Output == Output, P.Failure == Failure {
    if let erased = publisher as? AnyPublisher<Output, Failure> {
      box = erased.box
    } else {
      box = PublisherBox(publisher)
    }
  }

  /// Attaches `subscriber`: it receives its subscription, then values within the demand it
  /// signals, then at most one completion, as ``Publisher/receive(subscriber:)`` states.
  public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
    box.receive(subscriber: subscriber)
  }

  /// "AnyPublisher".
  public var description: String { "AnyPublisher" }

  /// "AnyPublisher".
  public var playgroundDescription: Any { description }
}

extension Publisher {
  /// Wraps this publisher in an ``AnyPublisher``.
  public func eraseToAnyPublisher() -> AnyPublisher<Output, Failure> {
    AnyPublisher(self)
  }
}

private class AnyPublisherBox<Output, Failure: Error>: @unchecked Sendable {
  func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {}
}

private final class PublisherBox<P: Publisher>: AnyPublisherBox<P.Output, P.Failure>,
  @unchecked Sendable
{
  let publisher: P
  init(_ publisher: P) { self.publisher = publisher }
  override func receive<S: Subscriber>(subscriber: S)
  where S.Input == P.Output, S.Failure == P.Failure {
    publisher.receive(subscriber: subscriber)
  }
}
