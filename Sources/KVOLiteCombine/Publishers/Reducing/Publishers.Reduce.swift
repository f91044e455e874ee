extension Publishers {
  /// A publisher of the accumulation of its upstream's values, when it finishes. Its subscription
  /// is "Reduce".
  public struct Reduce<Upstream: Publisher, Output>: Publisher {
    /// The kind of values this publisher publishes.
    public typealias Output = Output
    /// The kind of errors this publisher might publish.
    public typealias Failure = Upstream.Failure

    /// The publisher this one reduces.
    public let upstream: Upstream
    /// The accumulation before the first value.
    public let initial: Output
    /// Takes the accumulation so far and a value to the next accumulation.
    public let nextPartialResult: (Output, Upstream.Output) -> Output

    /// Accumulates `upstream`'s values from `initial` with `nextPartialResult`.
    public init(
      upstream: Upstream, initial: Output,
      nextPartialResult: @escaping (Output, Upstream.Output) -> Output
    ) {
      self.upstream = upstream
      self.initial = initial
      self.nextPartialResult = nextPartialResult
    }

    /// Attaches `subscriber`: it receives its subscription, then values within the demand it
    /// signals, then at most one completion, as ``Publisher/receive(subscriber:)`` states.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let initial = self.initial
      let nextPartialResult = self.nextPartialResult
      upstream.subscribe(
        ReducingSubscription(
          downstream: subscriber, name: "Reduce", initial: initial, mapFailure: { $0 }
        ) {
          result, value in
          result = nextPartialResult(result!, value)
          return .continue
        })
    }
  }

  /// ``Reduce`` with a throwing closure; an error it throws cancels upstream and ends the publisher
  /// with that error. Its subscription is "TryReduce".
  public struct TryReduce<Upstream: Publisher, Output>: Publisher {
    /// The kind of values this publisher publishes.
    public typealias Output = Output
    /// The kind of errors this publisher might publish.
    public typealias Failure = any Error

    /// The publisher this one reduces.
    public let upstream: Upstream
    /// The accumulation before the first value.
    public let initial: Output
    /// Takes the accumulation so far and a value to the next accumulation.
    public let nextPartialResult: (Output, Upstream.Output) throws -> Output

    /// Accumulates `upstream`'s values from `initial` with `nextPartialResult`.
    public init(
      upstream: Upstream, initial: Output,
      nextPartialResult: @escaping (Output, Upstream.Output) throws -> Output
    ) {
      self.upstream = upstream
      self.initial = initial
      self.nextPartialResult = nextPartialResult
    }

    /// Attaches `subscriber`: it receives its subscription, then values within the demand it
    /// signals, then at most one completion, as ``Publisher/receive(subscriber:)`` states.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let initial = self.initial
      let nextPartialResult = self.nextPartialResult
      upstream.subscribe(
        ReducingSubscription(
          downstream: subscriber, name: "TryReduce", initial: initial, mapFailure: { $0 }
        ) {
          result, value in
          do {
            result = try nextPartialResult(result!, value)
            return .continue
          } catch {
            return .fail(error)
          }
        })
    }
  }
}

extension Publisher {
  /// Publishes the accumulation of every value, from `initialResult`, when this publisher
  /// finishes.
  ///
  ///     [1, 2, 3].publisher.reduce(0, +)  // publishes 6
  public func reduce<T>(_ initialResult: T, _ nextPartialResult: @escaping (T, Output) -> T)
    -> Publishers.Reduce<Self, T>
  {
    Publishers.Reduce(upstream: self, initial: initialResult, nextPartialResult: nextPartialResult)
  }

  /// ``reduce(_:_:)`` with a throwing closure; a thrown error ends the publisher.
  public func tryReduce<T>(
    _ initialResult: T, _ nextPartialResult: @escaping (T, Output) throws -> T
  )
    -> Publishers.TryReduce<Self, T>
  {
    Publishers.TryReduce(
      upstream: self, initial: initialResult, nextPartialResult: nextPartialResult)
  }
}
