extension Publishers {
  /// A publisher that waits for ``connect()`` before it subscribes to its upstream, sharing
  /// that one subscription among its subscribers (through a passthrough subject).
  public struct MakeConnectable<Upstream: Publisher>: ConnectablePublisher {
    /// The kind of values this publisher publishes.
    public typealias Output = Upstream.Output
    /// The kind of errors this publisher might publish.
    public typealias Failure = Upstream.Failure

    private let inner: Multicast<Upstream, PassthroughSubject<Output, Failure>>

    /// `upstream`, started by ``connect()``.
    public init(upstream: Upstream) {
      inner = upstream.multicast(subject: PassthroughSubject())
    }

    /// Attaches `subscriber`: it receives its subscription, then values within the demand it
    /// signals, then at most one completion, as ``Publisher/receive(subscriber:)`` states.
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      inner.subscribe(subscriber)
    }

    /// Subscribes to upstream; cancelling the result ends that subscription.
    public func connect() -> any Cancellable {
      inner.connect()
    }
  }
}

extension Publisher where Failure == Never {
  /// A connectable version of this publisher: subscribers attach first, ``ConnectablePublisher/connect()``
  /// starts it.
  public func makeConnectable() -> Publishers.MakeConnectable<Self> {
    Publishers.MakeConnectable(upstream: self)
  }
}
