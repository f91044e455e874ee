// URLSession's publisher, where Apple's Combine does not provide it. A module of its own, so that
// only an app that uses it links FoundationNetworking (and, through it, libcurl): the
// `KVOLiteCombineNetworking` product, or the `URLSessionPublishers` trait (see Package.swift).
#if !canImport(Darwin)
  import Foundation
  import KVOLiteCombine
  import KVOLiteLocking

  #if canImport(FoundationNetworking)
    import FoundationNetworking
  #endif

  extension URLSession {
    /// A publisher of the data and response of one URL load: Foundation's
    /// `URLSession.DataTaskPublisher`, on Linux too (where `URLSession` is FoundationNetworking's).
    ///
    /// Each subscriber starts its own data task on its first request for a value; it receives
    /// the data and response then `.finished`, or a `URLError` (an HTTP error status is not a
    /// failure: check the response). Cancelling cancels the task; nothing is delivered after.
    public struct DataTaskPublisher: Publisher, Sendable {
      /// The kind of values this publisher publishes.
      public typealias Output = (data: Data, response: URLResponse)
      /// The kind of errors this publisher might publish.
      public typealias Failure = URLError

      /// The request loaded.
      public let request: URLRequest
      /// The session that loads it.
      public let session: URLSession

      /// A publisher of `session`'s load of `request`.
      public init(request: URLRequest, session: URLSession) {
        self.request = request
        self.session = session
      }

      /// Attaches `subscriber`: it receives its subscription, then values within the demand it
      /// signals, then at most one completion, as ``Publisher/receive(subscriber:)`` states.
      public func receive<S: Subscriber>(subscriber: S)
      where S.Input == Output, S.Failure == URLError {
        subscriber.receive(
          subscription: DataTaskSubscription(
            downstream: subscriber, request: request, session: session))
      }
    }

    /// A publisher of the load of `url`.
    ///
    ///     URLSession.shared.dataTaskPublisher(for: url).map(\.data).decode(type: [Book].self, decoder: JSONDecoder())
    public func dataTaskPublisher(for url: URL) -> DataTaskPublisher {
      DataTaskPublisher(request: URLRequest(url: url), session: self)
    }

    /// A publisher of the load of `request`.
    public func dataTaskPublisher(for request: URLRequest) -> DataTaskPublisher {
      DataTaskPublisher(request: request, session: self)
    }
  }

  /// One subscriber's load, with Foundation's state machine: the data task is made at the
  /// first request and resumed at every request (as Foundation's is); the result goes
  /// downstream if it has asked for it: the data (empty if there is none) with the response,
  /// then `.finished`; the task's `URLError`; or `URLError(.unknown)` for any other error or
  /// when there is no response. A request for `.none` traps; a cancel cancels the task. It
  /// lets go of everything once it has ended. Thread-safe: the state is behind `lock`; the
  /// session, the task and downstream are called after unlocking.
  private final class DataTaskSubscription<Downstream: Subscriber>: Subscription,
    CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
  where Downstream.Input == URLSession.DataTaskPublisher.Output, Downstream.Failure == URLError {
    // @unchecked: the mutable state is behind `lock`.
    private let lock = Lock()
    /// The publisher, until the subscription ends.
    private var parent: URLSession.DataTaskPublisher?
    private var downstream: Downstream?
    private var demand = Subscribers.Demand.none
    private var task: URLSessionDataTask?

    init(downstream: Downstream, request: URLRequest, session: URLSession) {
      self.downstream = downstream
      parent = URLSession.DataTaskPublisher(request: request, session: session)
    }

    func request(_ demand: Subscribers.Demand) {
      require(demand > 0, "a subscriber must request at least one value, not \(demand)")
      lock.lock()
      guard let parent else { return lock.unlock() }
      let existing = task
      lock.unlock()
      // The session calls back on its own queue: the handler is the thread-safe `finish`.
      let made = existing == nil ? makeTask(parent) : nil
      let task = lock.withLock { () -> URLSessionDataTask? in
        guard self.parent != nil else { return nil }
        if self.task == nil { self.task = made }
        self.demand += demand
        return self.task
      }
      task?.resume()
    }

    private func makeTask(_ parent: URLSession.DataTaskPublisher) -> URLSessionDataTask {
      let handler = UncheckedSendable<(Data?, URLResponse?, (any Error)?) -> Void> { [self] in
        self.finish($0, $1, $2)
      }
      return parent.session.dataTask(with: parent.request) { handler.value($0, $1, $2) }
    }

    /// Ends, with the lock held: what it let go of, for release after unlocking.
    private func end() -> (Downstream?, URLSession.DataTaskPublisher?, URLSessionDataTask?) {
      demand = .none
      return (downstream.take(), parent.take(), task.take())
    }

    private func finish(_ data: Data?, _ response: URLResponse?, _ error: (any Error)?) {
      let ended = lock.withLock {
        () -> (Downstream?, URLSession.DataTaskPublisher?, URLSessionDataTask?)? in
        guard demand > 0, parent != nil, downstream != nil else { return nil }
        return end()
      }
      guard let (downstream, _, _) = ended, let downstream else { return }
      switch (data, response, error) {
      case (let data, let response?, nil):
        _ = downstream.receive((data ?? Data(), response))
        downstream.receive(completion: .finished)
      case (_, _, let error as URLError):
        downstream.receive(completion: .failure(error))
      default:
        downstream.receive(completion: .failure(URLError(.unknown)))
      }
    }

    func cancel() {
      let ended = lock.withLock {
        () -> (Downstream?, URLSession.DataTaskPublisher?, URLSessionDataTask?)? in
        guard parent != nil else { return nil }
        return end()
      }
      ended?.2?.cancel()
      withExtendedLifetime(ended) {}
    }

    var description: String { "DataTaskPublisher" }
    var customMirror: Mirror {
      let (task, downstream, parent, demand) = lock.withLock {
        (self.task, self.downstream, self.parent, self.demand)
      }
      return Mirror(
        self,
        children: [
          ("task", task as Any), ("downstream", downstream as Any), ("parent", parent as Any),
          ("demand", demand),
        ])
    }
    var playgroundDescription: Any { description }
  }
#endif
