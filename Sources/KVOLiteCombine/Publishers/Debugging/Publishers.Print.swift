import KVOLiteLocking

extension Publishers {
  /// A publisher that prints a line for every event, as Combine's `print` does:
  /// `receive subscription: (…)`, `request unlimited`, `request max: (n)`, `receive value: (…)`,
  /// the demand a value returned (`request max: (n) (synchronous)`), `receive finished`,
  /// `receive error: (…)`, `receive cancel`, each after `prefix: ` if there is a prefix.
  ///
  /// Lines go to `stream`, or to standard output. Its subscription is "Print".
  public struct Print<Upstream: Publisher>: Publisher {
    /// The kind of values this publisher publishes.
    public typealias Output = Upstream.Output
    /// The kind of errors this publisher might publish.
    public typealias Failure = Upstream.Failure

    /// The start of each line.
    public let prefix: String
    /// The publisher whose events are printed.
    public let upstream: Upstream
    /// Where the lines go; standard output if `nil`.
    public let stream: (any TextOutputStream)?

    /// A publisher that prints `upstream`'s events.
    public init(upstream: Upstream, prefix: String, to stream: (any TextOutputStream)? = nil) {
      self.upstream = upstream
      self.prefix = prefix
      self.stream = stream
    }

    /// Attaches `subscriber`: it receives its subscription, then values within the demand it
    /// signals, then at most one completion, as ``Publisher/receive(subscriber:)`` states.
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      upstream.subscribe(PrintInner(downstream: subscriber, prefix: prefix, stream: stream))
    }
  }
}

/// Where a `print` operator writes: a copy of the stream, or standard output. Each line is
/// written as `Swift.print` writes it (the separator before it, the line, then the newline), as
/// Combine's does. Writes are serialized by a recursive lock: events may come from several
/// threads at once (upstream's values, downstream's requests and cancel).
private final class PrintTarget: @unchecked Sendable {
  // @unchecked: `stream` is only used with `writing` held.
  private struct Stream: TextOutputStream {
    var stream: any TextOutputStream
    mutating func write(_ string: String) { stream.write(string) }
  }

  private var stream: Stream?
  private let writing = RecursiveLock()

  init(_ stream: (any TextOutputStream)?) { self.stream = stream.map(Stream.init) }

  func write(_ line: String) {
    writing.withLock {
      if stream == nil {
        Swift.print(line)
      } else {
        Swift.print(line, to: &stream!)
      }
    }
  }
}

/// The subscription of `print`, with Combine's state machine: each event is printed, then
/// goes on; values and completions are handed on even before the subscription and after the
/// end (to a subscriber that is still alive, see ``EndingDownstream``); requests and cancels
/// are printed whenever they come, and reach upstream while it is subscribed; a cancel before
/// the subscription is only printed. Thread-safe: the state is behind `lock`; lines are
/// written and downstream called after unlocking.
private final class PrintInner<Downstream: Subscriber>: Subscriber, Subscription,
  CustomStringConvertible,
  CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
  // @unchecked: `status` and `downstream` are behind `lock`.
  typealias Input = Downstream.Input
  typealias Failure = Downstream.Failure

  private var downstream: EndingDownstream<Downstream>
  private let prefix: String
  private let target: PrintTarget
  private let lock = Lock()
  private var status = SubscriptionStatus.awaitingSubscription

  init(downstream: Downstream, prefix: String, stream: (any TextOutputStream)?) {
    self.downstream = EndingDownstream(downstream)
    self.prefix = prefix.isEmpty ? "" : prefix + ": "
    target = PrintTarget(stream)
  }

  private func log(_ text: String) { target.write(prefix + text) }

  private func log(_ demand: Subscribers.Demand, synchronous: Bool) {
    let text = demand.max.map { "request max: (\($0))" } ?? "request unlimited"
    log(synchronous ? text + " (synchronous)" : text)
  }

  func receive(subscription: any Subscription) {
    log("receive subscription: (\(subscription))")
    guard
      let downstream = lock.withLock({ status.accept(subscription) ? downstream.live : nil })
    else {
      return subscription.cancel()
    }
    downstream.receive(subscription: self)
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    log("receive value: (\(input))")
    guard let downstream = lock.withLock({ downstream.reachable }) else { return .none }
    let demand = downstream.receive(input)
    log(demand, synchronous: true)
    return demand
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    switch completion {
    case .finished: log("receive finished")
    case .failure(let error): log("receive error: (\(error))")
    }
    let downstream = lock.withLock { () -> Downstream? in
      status = .terminal
      return self.downstream.end() ?? self.downstream.reachable
    }
    downstream?.receive(completion: completion)
  }

  func request(_ demand: Subscribers.Demand) {
    log(demand, synchronous: false)
    lock.withLock { status.subscription }?.request(demand)
  }

  func cancel() {
    log("receive cancel")
    let (subscription, downstream) = lock.withLock { () -> ((any Subscription)?, Downstream?) in
      guard let subscription = status.subscription else { return (nil, nil) }
      status = .terminal
      return (subscription, self.downstream.end())
    }
    subscription?.cancel()
    withExtendedLifetime(downstream) {}
  }

  var description: String { "Print" }
  var customMirror: Mirror { Mirror(self, children: [:]) }
  var playgroundDescription: Any { description }
}

extension Publisher {
  /// Prints a line for every event (see ``Publishers/Print``), to `stream` or standard output.
  ///
  ///     [1, 2].publisher.print("numbers").sink { _ in }
  ///     // numbers: receive subscription: ([1, 2])
  ///     // numbers: request unlimited
  ///     // numbers: receive value: (1)
  ///     // …
  public func print(_ prefix: String = "", to stream: (any TextOutputStream)? = nil)
    -> Publishers.Print<Self>
  {
    Publishers.Print(upstream: self, prefix: prefix, to: stream)
  }
}
