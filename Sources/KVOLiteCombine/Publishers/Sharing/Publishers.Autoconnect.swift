import KVOLiteLocking

extension Publishers {
  /// A publisher that connects its connectable upstream when the first subscriber attaches
  /// (after subscribing it), and cancels the connection when the last subscriber cancels.
  ///
  /// As in Combine, a subscriber that completes is not counted out; only cancellation is (once
  /// per subscriber). The subscription a subscriber receives is upstream's, wrapped so that its
  /// cancel is counted. Also as in Combine, a subscriber attached while the first one is still
  /// connecting (from inside its `receive(subscription:)`, or on another thread) connects
  /// again, and the later connection replaces the earlier one, which is let go of, not
  /// cancelled (an `AnyCancellable` cancels when released). Where Combine keeps a connection
  /// made for a subscriber that cancelled before it was made (a leak: no subscriber is left to
  /// end it), it is cancelled at once. Thread-safe.
  public final class Autoconnect<Upstream: ConnectablePublisher>: Publisher, @unchecked Sendable {
    // @unchecked: the mutable state is behind `lock`.
    /// The kind of values this publisher publishes.
    public typealias Output = Upstream.Output
    /// The kind of errors this publisher might publish.
    public typealias Failure = Upstream.Failure

    /// The connectable publisher.
    public let upstream: Upstream

    /// Whether upstream is connected, and for how many subscribers.
    private enum State {
      case disconnected
      case connected(subscribers: Int, connection: any Cancellable)
    }

    private let lock = Lock()
    private var state = State.disconnected

    /// `upstream`, connected while it has subscribers.
    public init(upstream: Upstream) {
      self.upstream = upstream
    }

    /// Attaches `subscriber`: it receives its subscription, then values within the demand it
    /// signals, then at most one completion, as ``Publisher/receive(subscriber:)`` states.
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let member = AutoconnectMember()
      let joined = lock.withLock { () -> Bool in
        guard case .connected(let subscribers, let connection) = state else { return false }
        state = .connected(subscribers: subscribers + 1, connection: connection)
        return true
      }
      upstream.subscribe(AutoconnectSide(parent: self, member: member, downstream: subscriber))
      guard !joined else { return }
      let made = upstream.connect()
      let (replaced, unwanted) = lock.withLock {
        () -> ((any Cancellable)?, (any Cancellable)?) in
        guard !member.cancelled else { return (nil, made) }
        defer { state = .connected(subscribers: 1, connection: made) }
        guard case .connected(_, let connection) = state else { return (nil, nil) }
        return (connection, nil)
      }
      unwanted?.cancel()
      withExtendedLifetime(replaced) {}
    }

    /// `member` cancelled (the first time only): the last one disconnects.
    fileprivate func release(_ member: AutoconnectMember) {
      let connection = lock.withLock { () -> (any Cancellable)? in
        guard !member.cancelled else { return nil }
        member.cancelled = true
        guard case .connected(let subscribers, let connection) = state else { return nil }
        guard subscribers <= 1 else {
          state = .connected(subscribers: subscribers - 1, connection: connection)
          return nil
        }
        state = .disconnected
        return connection
      }
      connection?.cancel()
    }
  }
}

/// One subscriber of an ``Publishers/Autoconnect``: whether it has cancelled (guarded by the
/// autoconnect's lock).
private final class AutoconnectMember: @unchecked Sendable {
  // @unchecked: `cancelled` is behind the autoconnect's lock.
  var cancelled = false
}

/// What `autoconnect` subscribes to upstream for each subscriber.
private struct AutoconnectSide<Upstream: ConnectablePublisher, Downstream: Subscriber>: Subscriber,
  CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
  let parent: Publishers.Autoconnect<Upstream>
  let member: AutoconnectMember
  let downstream: Downstream
  let combineIdentifier = CombineIdentifier()

  func receive(subscription: any Subscription) {
    downstream.receive(
      subscription: CountedSubscription(upstream: subscription, parent: parent, member: member))
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

/// Upstream's subscription, with its cancel counted by the ``Publishers/Autoconnect`` (once per
/// subscriber: cancels after the first do nothing more there).
private final class CountedSubscription<Upstream: ConnectablePublisher>: Subscription,
  CustomStringConvertible,
  CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
  // @unchecked: immutable; the member's state is behind the autoconnect's lock.
  private let upstream: any Subscription
  private let parent: Publishers.Autoconnect<Upstream>
  private let member: AutoconnectMember

  init(
    upstream: any Subscription, parent: Publishers.Autoconnect<Upstream>,
    member: AutoconnectMember
  ) {
    self.upstream = upstream
    self.parent = parent
    self.member = member
  }

  func request(_ demand: Subscribers.Demand) { upstream.request(demand) }

  func cancel() {
    parent.release(member)
    upstream.cancel()
  }

  var combineIdentifier: CombineIdentifier { upstream.combineIdentifier }
  var description: String { String(describing: upstream) }
  var playgroundDescription: Any { description }
}
