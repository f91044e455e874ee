/// The values of a publisher that can fail as an `AsyncSequence`, for `for try await` code:
/// Combine's `AsyncThrowingPublisher`.
///
///     for try await books in loader.books.values { show(books) }
///
/// As ``AsyncPublisher``: the iterator requests one value at a time (a value published while
/// nobody awaits is dropped by publishers that drop values without demand), and cancelling the
/// awaiting task ends the sequence, and leaving the loop cancels the subscription. The upstream's failure is thrown from `next()`, once; the
/// sequence then ends.
public struct AsyncThrowingPublisher<Upstream: Publisher>: AsyncSequence {
  /// The kind of values the sequence yields: the upstream's output.
  public typealias Element = Upstream.Output

  private let upstream: Upstream

  /// A sequence of `upstream`'s values; nothing is subscribed until iteration starts.
  public init(_ upstream: Upstream) {
    self.upstream = upstream
  }

  /// An iterator with its own subscription to the upstream.
  public func makeAsyncIterator() -> Iterator {
    let subscriber = AsyncSubscriber<Element, Upstream.Failure>()
    upstream.subscribe(subscriber)
    return Iterator(subscriber: subscriber, reference: AnyCancellable(subscriber))
  }

  /// Awaits values one by one.
  public struct Iterator: AsyncIteratorProtocol {
    fileprivate let subscriber: AsyncSubscriber<Element, Upstream.Failure>
    /// Cancels the subscription when the last copy of the iterator goes (a loop left with
    /// `break`, `return` or a throw), as Combine's iterator does: the subscription holds the
    /// subscriber, so without it both would live as long as the upstream.
    fileprivate let reference: AnyCancellable

    /// The next value; `nil` once the upstream has finished or the task is cancelled.
    /// - Throws: The upstream's failure, once.
    public mutating func next() async throws -> Element? {
      try await subscriber.next().get()
    }
  }
}

extension Publisher {
  /// This publisher's values as an `AsyncSequence` that throws the publisher's failure.
  ///
  /// Apple added it after Combine's first release: it is a disfavored overload, so a library's
  /// own backfill of it wins where both are visible (see the Combine compatibility article).
  @_disfavoredOverload
  public var values: AsyncThrowingPublisher<Self> { AsyncThrowingPublisher(self) }
}
