extension Publishers {
  /// A publisher that transforms every value with a throwing closure; a thrown error cancels
  /// upstream and ends the publisher with that error.
  ///
  /// Unlike ``Map``, it has a subscription of its own ("TryMap"), with Combine's state machine
  /// (a value before subscription traps; events after the end are ignored).
  public struct TryMap<Upstream: Publisher, Output>: Publisher {
    /// The kind of errors this publisher might publish.
    public typealias Failure = any Error

    /// The publisher this one transforms.
    public let upstream: Upstream
    /// The transformation.
    public let transform: (Upstream.Output) throws -> Output

    /// A publisher that transforms `upstream`'s values with `transform`.
    public init(upstream: Upstream, transform: @escaping (Upstream.Output) throws -> Output) {
      self.upstream = upstream
      self.transform = transform
    }

    /// Attaches `subscriber`: it receives its subscription, then values within the demand it
    /// signals, then at most one completion, as ``Publisher/receive(subscriber:)`` states.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let transform = self.transform
      upstream.subscribe(
        StepSubscription(downstream: subscriber, name: "TryMap", mapFailure: { $0 }) { input in
          do { return .send(try transform(input)) } catch { return .fail(error) }
        })
    }
  }
}

extension Publishers.TryMap {
  /// Fuses with the next `map`, as Combine does: one `TryMap`.
  public func map<T>(_ transform: @escaping (Output) -> T) -> Publishers.TryMap<Upstream, T> {
    let first = self.transform
    return Publishers.TryMap(upstream: upstream) { transform(try first($0)) }
  }

  /// Fuses with the next `tryMap`, as Combine does.
  public func tryMap<T>(_ transform: @escaping (Output) throws -> T)
    -> Publishers.TryMap<Upstream, T>
  {
    let first = self.transform
    return Publishers.TryMap(upstream: upstream) { try transform(try first($0)) }
  }
}

extension Publishers.Map {
  /// Fuses with the next `tryMap`, as Combine does: one `TryMap`.
  public func tryMap<T>(_ transform: @escaping (Output) throws -> T)
    -> Publishers.TryMap<Upstream, T>
  {
    let first = self.transform
    return Publishers.TryMap(upstream: upstream) { try transform(first($0)) }
  }
}

extension Publisher {
  /// Transforms every value with a throwing closure; a thrown error ends the publisher.
  ///
  ///     strings.tryMap { try JSONDecoder().decode(Book.self, from: Data($0.utf8)) }
  public func tryMap<T>(_ transform: @escaping (Output) throws -> T) -> Publishers.TryMap<Self, T> {
    Publishers.TryMap(upstream: self, transform: transform)
  }
}
