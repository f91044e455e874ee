// Foundation's publishers and schedulers, where Apple's Combine does not provide them.
#if !canImport(Combine)
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

  /// One subscriber's load.
  private final class DataTaskSubscription<Downstream: Subscriber>: Subscription,
    CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
  where Downstream.Input == URLSession.DataTaskPublisher.Output, Downstream.Failure == URLError {
    // @unchecked: the mutable state is behind `lock`.
    private let lock = Lock()
    private let request: URLRequest
    private let session: URLSession
    private var downstream: Downstream?
    private var task: URLSessionDataTask?

    init(downstream: Downstream, request: URLRequest, session: URLSession) {
      self.downstream = downstream
      self.request = request
      self.session = session
    }

    func request(_ demand: Subscribers.Demand) {
      precondition(demand > 0, "a subscriber must request at least one value, not \(demand)")
      guard lock.withLock({ downstream != nil && self.task == nil }) else { return }
      // The session calls back on its own queue: the handler is the thread-safe `finish`.
      let handler = UncheckedSendable<(Data?, URLResponse?, (any Error)?) -> Void> { [self] in
        self.finish($0, $1, $2)
      }
      let dataTask = session.dataTask(with: request) { handler.value($0, $1, $2) }
      let started = lock.withLock { () -> Bool in
        guard downstream != nil, self.task == nil else { return false }
        self.task = dataTask
        return true
      }
      if started { dataTask.resume() }
    }

    private func finish(_ data: Data?, _ response: URLResponse?, _ error: (any Error)?) {
      guard
        let downstream = lock.withLock({ () -> Downstream? in
          defer { task = nil }
          return self.downstream.take()
        })
      else { return }
      if let error {
        downstream.receive(completion: .failure(error as? URLError ?? URLError(.unknown)))
      } else if let response {
        _ = downstream.receive((data ?? Data(), response))
        downstream.receive(completion: .finished)
      } else {
        downstream.receive(completion: .failure(URLError(.badServerResponse)))
      }
    }

    func cancel() {
      let (downstream, task) = lock.withLock { (self.downstream.take(), self.task.take()) }
      withExtendedLifetime(downstream) {}
      task?.cancel()
    }

    var description: String { "DataTaskPublisher" }
    var customMirror: Mirror { Mirror(self, children: [("request", request as Any)]) }
    var playgroundDescription: Any { description }
  }
#endif
