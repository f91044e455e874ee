/// The values of a publisher as an `AsyncSequence`, for `for await` code.
///
///     for await name in person.values(for: \.firstName) { print(name) }
///
/// The iterator requests one value at a time, so nothing is buffered: a value published while
/// nobody awaits is dropped by publishers that drop values without demand (KVO publishers), and
/// kept by those that hold a current value. Cancelling the awaiting task ends the sequence;
/// leaving the loop (the iterator's last copy going) cancels the subscription.
public struct AsyncPublisher<Upstream: Publisher>: AsyncSequence where Upstream.Failure == Never {
  /// The kind of values the sequence yields: the upstream's output.
  public typealias Element = Upstream.Output

  private let upstream: Upstream

  /// A sequence of `upstream`'s values; nothing is subscribed until iteration starts.
  public init(_ upstream: Upstream) {
    self.upstream = upstream
  }

  /// An iterator with its own subscription to the upstream.
  public func makeAsyncIterator() -> Iterator {
    let subscriber = AsyncSubscriber<Element, Never>()
    upstream.subscribe(subscriber)
    return Iterator(subscriber: subscriber, reference: AnyCancellable(subscriber))
  }

  /// Awaits values one by one.
  public struct Iterator: AsyncIteratorProtocol {
    fileprivate let subscriber: AsyncSubscriber<Element, Never>
    /// Cancels the subscription when the last copy of the iterator goes (a loop left with
    /// `break`, `return` or a throw), as Combine's iterator does: the subscription holds the
    /// subscriber, so without it both would live as long as the upstream.
    fileprivate let reference: AnyCancellable

    /// The next value, or `nil` once the upstream has finished or the task is cancelled.
    public mutating func next() async -> Element? {
      await subscriber.next().get()
    }
  }
}

extension Publisher where Failure == Never {
  /// This publisher's values as an `AsyncSequence`.
  ///
  /// Apple added it after Combine's first release: it is a disfavored overload, so a library's
  /// own backfill of it wins where both are visible (see the Combine compatibility article).
  @_disfavoredOverload
  public var values: AsyncPublisher<Self> { AsyncPublisher(self) }
}
