import KVOLiteLocking

extension Publishers {
  /// A publisher that publishes only values that differ from the previous one.
  ///
  /// Its subscription ("RemoveDuplicates") follows Combine's state machine (see
  /// `FilteringSubscription`): a value before upstream's subscription traps; a duplicate
  /// answers upstream with a demand of one more.
  public struct RemoveDuplicates<Upstream: Publisher>: Publisher {
    /// The kind of values this publisher publishes.
    public typealias Output = Upstream.Output
    /// The kind of errors this publisher might publish.
    public typealias Failure = Upstream.Failure

    /// The publisher this one filters.
    public let upstream: Upstream
    /// Whether the second value is a duplicate of the first (the previous one).
    public let predicate: (Output, Output) -> Bool

    /// A publisher of `upstream`'s values that `predicate` does not call duplicates of the
    /// value before them.
    public init(upstream: Upstream, predicate: @escaping (Output, Output) -> Bool) {
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
        RemoveDuplicatesInner(downstream: subscriber, name: "RemoveDuplicates", mapFailure: { $0 })
        {
          (a, b) throws(Failure) in predicate(a, b)
        })
    }
  }
}

/// The subscription of `removeDuplicates` and `tryRemoveDuplicates` ("RemoveDuplicates",
/// "TryRemoveDuplicates"; the mirror shows the previous value as `last`).
///
/// Its hot path avoids generic `Optional` and `FilteringStep` values: this code runs
/// unspecialized (through the class's vtable), where every use of such a type looks up its
/// metadata at run time. The previous value and the predicate live in ``Slot``s instead. The
/// predicate runs outside the lock.
@usableFromInline
final class RemoveDuplicatesInner<Downstream: Subscriber, UpstreamFailure: Error>:
  FilteringSubscription<Downstream, Downstream.Input, UpstreamFailure>, @unchecked Sendable
{
  // @unchecked: `last` and `isDuplicate` are behind `lock`.
  @usableFromInline typealias Value = Downstream.Input
  @usableFromInline typealias Predicate = (Value, Value) throws(Downstream.Failure) -> Bool

  /// Whether the second value duplicates the first; throws (for `try`) to fail. `nil` once the
  /// subscription ended. A stored optional closure, not a ``Slot``: a closure's layout does not
  /// depend on its types, so this unspecialized class reads it without looking up metadata (a
  /// `Slot` of this typed-throws function type looked the type up on every value, about 170
  /// instructions: benchmark row D). Behind `lock`.
  @exclusivity(unchecked) @usableFromInline var isDuplicate: Predicate?
  @usableFromInline let name: String
  /// The previous value, duplicate or not.
  @usableFromInline let last = Slot<Value>()

  @inlinable init(
    downstream: Downstream, name: String,
    mapFailure: @escaping (UpstreamFailure) -> Downstream.Failure,
    isDuplicate: @escaping Predicate
  ) {
    self.isDuplicate = isDuplicate
    self.name = name
    super.init(downstream: downstream, mapFailure: mapFailure)
  }

  @inlinable override func receive(_ input: Value) -> Subscribers.Demand {
    lock.lock()
    guard let subscription = admitLocked() else {
      lock.unlock()
      return .none
    }
    let downstream = self.downstream.value
    guard last.isFull else {
      last.fill(input)
      lock.unlock()
      return downstream.receive(input)
    }
    let previous = last.replace(with: input)
    // Present: the subscription has not ended (`admitLocked()`).
    let isDuplicate = self.isDuplicate!
    lock.unlock()
    do {
      if try isDuplicate(previous, input) { return .max(1) }
    } catch {
      fail(subscription, error)
      return .none
    }
    return downstream.receive(input)
  }

  /// Ends with the predicate's error. Out of line, so that the common path of ``receive(_:)``
  /// does not look up the metadata of `Subscribers.Completion` on every value.
  @usableFromInline @inline(never)
  func fail(_ subscription: any Subscription, _ error: Downstream.Failure) {
    end(subscription, with: .failure(error))
  }

  @usableFromInline override func takeClosures() -> Any? {
    defer { isDuplicate = nil }
    return (isDuplicate, last.take())
  }
  @usableFromInline override var description: String { name }
  @usableFromInline override var customMirror: Mirror {
    let (downstream, previous) = lock.withLock { (self.downstream.valueIfFull, last.valueIfFull) }
    return Mirror(self, children: [("downstream", downstream as Any), ("last", previous as Any)])
  }
}

extension Publishers {
  /// A publisher that publishes only values that a throwing predicate does not call duplicates
  /// of the previous one; an error thrown by the predicate cancels upstream and fails.
  public struct TryRemoveDuplicates<Upstream: Publisher>: Publisher {
    /// The kind of values this publisher publishes.
    public typealias Output = Upstream.Output
    /// The kind of errors this publisher might publish.
    public typealias Failure = any Error

    /// The publisher this one filters.
    public let upstream: Upstream
    /// Whether the second value is a duplicate of the first (the previous one).
    public let predicate: (Output, Output) throws -> Bool

    /// A publisher of `upstream`'s values that `predicate` does not call duplicates.
    public init(upstream: Upstream, predicate: @escaping (Output, Output) throws -> Bool) {
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
        RemoveDuplicatesInner(
          downstream: subscriber, name: "TryRemoveDuplicates", mapFailure: { $0 }
        ) {
          (a, b) throws(any Error) in try predicate(a, b)
        })
    }
  }
}

extension Publisher {
  /// Publishes only values that a throwing `predicate` does not call duplicates of the
  /// previous one; a thrown error ends the publisher with that error.
  public func tryRemoveDuplicates(by predicate: @escaping (Output, Output) throws -> Bool)
    -> Publishers.TryRemoveDuplicates<Self>
  {
    Publishers.TryRemoveDuplicates(upstream: self, predicate: predicate)
  }
}

extension Publisher where Output: Equatable {
  /// Publishes only values that differ from the previous one.
  ///
  ///     subject.removeDuplicates().sink { print($0) }  // 1, 1, 2, 2, 1 prints "1 2 1"
  public func removeDuplicates() -> Publishers.RemoveDuplicates<Self> {
    Publishers.RemoveDuplicates(upstream: self, predicate: ==)
  }
}

extension Publisher {
  /// Publishes only values that `predicate` does not call duplicates of the previous one.
  public func removeDuplicates(by predicate: @escaping (Output, Output) -> Bool)
    -> Publishers.RemoveDuplicates<Self>
  {
    Publishers.RemoveDuplicates(upstream: self, predicate: predicate)
  }
}
