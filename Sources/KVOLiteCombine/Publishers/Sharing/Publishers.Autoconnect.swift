import KVOLiteLocking

extension Publishers {
  /// A publisher that connects its connectable upstream when the first subscriber attaches
  /// (after subscribing it), and cancels the connection when the last subscriber cancels.
  ///
  /// As in Combine, a subscriber that completes is not counted out; only cancellation is. The
  /// subscription a subscriber receives is upstream's, wrapped so that its cancel is counted.
  /// Thread-safe.
  public final class Autoconnect<Upstream: ConnectablePublisher>: Publisher, @unchecked Sendable {
    // @unchecked: the mutable state is behind `lock`.
    /// The kind of values this publisher publishes.
    public typealias Output = Upstream.Output
    /// The kind of errors this publisher might publish.
    public typealias Failure = Upstream.Failure

    /// The connectable publisher.
    public let upstream: Upstream

    private let lock = Lock()
    private var subscribers = 0
    private var connection: (any Cancellable)?

    /// `upstream`, connected while it has subscribers.
    public init(upstream: Upstream) {
      self.upstream = upstream
    }

    /// Attaches `subscriber`: it receives its subscription, then values within the demand it
    /// signals, then at most one completion, as ``Publisher/receive(subscriber:)`` states.
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let first = lock.withLock { () -> Bool in
        subscribers += 1
        return subscribers == 1 && connection == nil
      }
      upstream.subscribe(AutoconnectSide(parent: self, downstream: subscriber))
      guard first else { return }
      let made = upstream.connect()
      let stale = lock.withLock { () -> (any Cancellable)? in
        guard subscribers > 0, connection == nil else { return made }
        connection = made
        return nil
      }
      stale?.cancel()
    }

    /// A subscriber cancelled: the last one disconnects.
    fileprivate func release() {
      let connection = lock.withLock { () -> (any Cancellable)? in
        guard subscribers > 0 else { return nil }
        subscribers -= 1
        return subscribers == 0 ? self.connection.take() : nil
      }
      connection?.cancel()
    }
  }
}

/// What `autoconnect` subscribes to upstream for each subscriber.
private struct AutoconnectSide<Upstream: ConnectablePublisher, Downstream: Subscriber>: Subscriber,
  CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
  let parent: Publishers.Autoconnect<Upstream>
  let downstream: Downstream
  let combineIdentifier = CombineIdentifier()

  func receive(subscription: any Subscription) {
    downstream.receive(subscription: CountedSubscription(upstream: subscription, parent: parent))
  }

  func receive(_ input: Upstream.Output) -> Subscribers.Demand { downstream.receive(input) }
  func receive(completion: Subscribers.Completion<Upstream.Failure>) {
    downstream.receive(completion: completion)
  }

  var description: String { "Autoconnect" }
  var customMirror: Mirror {
    Mirror(self, children: [("parent", parent as Any), ("downstream", downstream as Any)])
  }
  var playgroundDescription: Any { description }
}

/// Upstream's subscription, with its cancel counted by the ``Publishers/Autoconnect``. Cancels
/// after the first do nothing more.
private final class CountedSubscription<Upstream: ConnectablePublisher>: Subscription,
  CustomStringConvertible,
  CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
  // @unchecked: `cancelled` is atomic under `lock`.
  private let upstream: any Subscription
  private let parent: Publishers.Autoconnect<Upstream>
  private let lock = Lock()
  private var cancelled = false

  init(upstream: any Subscription, parent: Publishers.Autoconnect<Upstream>) {
    self.upstream = upstream
    self.parent = parent
  }

  func request(_ demand: Subscribers.Demand) { upstream.request(demand) }

  func cancel() {
    guard
      lock.withLock({ () -> Bool in
        defer { cancelled = true }
        return !cancelled
      })
    else { return upstream.cancel() }
    parent.release()
    upstream.cancel()
  }

  var combineIdentifier: CombineIdentifier { upstream.combineIdentifier }
  var description: String { String(describing: upstream) }
  var playgroundDescription: Any { description }
}
