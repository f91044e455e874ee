extension Publishers {
  /// A publisher that republishes values while a predicate holds, then finishes (cancelling
  /// upstream) at the first value it rejects. Its subscription is "PrefixWhile".
  public struct PrefixWhile<Upstream: Publisher>: Publisher {
    /// The kind of values this publisher publishes.
    public typealias Output = Upstream.Output
    /// The kind of errors this publisher might publish.
    public typealias Failure = Upstream.Failure

    /// The publisher this one takes values from.
    public let upstream: Upstream
    /// Whether to go on.
    public let predicate: (Upstream.Output) -> Bool

    /// A publisher of `upstream`'s values up to the first that `predicate` rejects.
    public init(upstream: Upstream, predicate: @escaping (Upstream.Output) -> Bool) {
      self.upstream = upstream
      self.predicate = predicate
    }

    /// Attaches `subscriber`: it receives its subscription, then values within the demand it
    /// signals, then at most one completion, as ``Publisher/receive(subscriber:)`` states.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let predicate = self.predicate
      upstream.subscribe(
        StepSubscription(downstream: subscriber, name: "PrefixWhile", mapFailure: { $0 }) { input in
          predicate(input) ? .send(input) : .finish
        })
    }
  }

  /// ``PrefixWhile`` with a throwing predicate; a thrown error ends it with that error. Its
  /// subscription is "TryPrefixWhile".
  public struct TryPrefixWhile<Upstream: Publisher>: Publisher {
    /// The kind of values this publisher publishes.
    public typealias Output = Upstream.Output
    /// The kind of errors this publisher might publish.
    public typealias Failure = any Error

    /// The publisher this one takes values from.
    public let upstream: Upstream
    /// Whether to go on.
    public let predicate: (Upstream.Output) throws -> Bool

    /// A publisher of `upstream`'s values up to the first that `predicate` rejects.
    public init(upstream: Upstream, predicate: @escaping (Upstream.Output) throws -> Bool) {
      self.upstream = upstream
      self.predicate = predicate
    }

    /// Attaches `subscriber`: it receives its subscription, then values within the demand it
    /// signals, then at most one completion, as ``Publisher/receive(subscriber:)`` states.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let predicate = self.predicate
      upstream.subscribe(
        StepSubscription(downstream: subscriber, name: "TryPrefixWhile", mapFailure: { $0 }) {
          input in
          do { return try predicate(input) ? .send(input) : .finish } catch { return .fail(error) }
        })
    }
  }
}

extension Publisher {
  /// Republishes values while `predicate` holds; finishes at the first it rejects.
  public func prefix(while predicate: @escaping (Output) -> Bool) -> Publishers.PrefixWhile<Self> {
    Publishers.PrefixWhile(upstream: self, predicate: predicate)
  }

  /// Republishes values while a throwing `predicate` holds; finishes at the first it rejects,
  /// and fails with an error it throws.
  public func tryPrefix(while predicate: @escaping (Output) throws -> Bool)
    -> Publishers.TryPrefixWhile<Self>
  {
    Publishers.TryPrefixWhile(upstream: self, predicate: predicate)
  }
}
