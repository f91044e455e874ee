extension Optional {
  /// A publisher of an optional's value, if it has one, then `.finished` (`nil` just
  /// finishes). The subscription describes itself as "Optional" and delivers on the first
  /// request; requesting `.none` traps.
  public struct Publisher: KVOLiteCombine.Publisher {
    /// The kind of values this publisher publishes.
    public typealias Output = Wrapped
    /// The kind of errors this publisher might publish.
    public typealias Failure = Never

    /// The value, if any.
    public let output: Wrapped?

    /// A publisher of `output`, if it is not `nil`.
    public init(_ output: Wrapped?) {
      self.output = output
    }

    /// Attaches `subscriber`: it receives its subscription, then values within the demand it
    /// signals, then at most one completion, as ``Publisher/receive(subscriber:)`` states.
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Wrapped, S.Failure == Never {
      guard let output else {
        subscriber.receive(subscription: Subscriptions.empty)
        subscriber.receive(completion: .finished)
        return
      }
      subscriber.receive(
        subscription: SingleValueSubscription(
          value: output, downstream: subscriber, name: "Optional"))
    }
  }

  /// A publisher of this optional's value, if it has one.
  ///
  /// Apple added it after Combine's first release: it is a disfavored overload, so a library's
  /// own backfill of it wins where both are visible (see the Combine compatibility article).
  @_disfavoredOverload
  public var publisher: Publisher { Publisher(self) }
}

extension Optional.Publisher: Equatable where Wrapped: Equatable {}
