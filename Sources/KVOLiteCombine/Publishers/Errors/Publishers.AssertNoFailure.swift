extension Publishers {
  /// A publisher that stops the program if its upstream fails (a programming error), and
  /// otherwise passes everything on.
  ///
  /// It adds no subscription of its own. Its subscriber describes itself as "AssertNoFailure",
  /// and its mirror shows `file`, `line` and `prefix`, as Combine's does.
  public struct AssertNoFailure<Upstream: Publisher>: Publisher {
    /// The kind of values this publisher publishes.
    public typealias Output = Upstream.Output
    /// The kind of errors this publisher might publish.
    public typealias Failure = Never

    /// The publisher that must not fail.
    public let upstream: Upstream
    /// The start of the message printed on failure.
    public let prefix: String
    /// Where `assertNoFailure` was called.
    public let file: StaticString
    /// Where `assertNoFailure` was called.
    public let line: UInt

    /// `upstream`, stopping the program if it fails.
    public init(upstream: Upstream, prefix: String, file: StaticString, line: UInt) {
      self.upstream = upstream
      self.prefix = prefix
      self.file = file
      self.line = line
    }

    /// Attaches `subscriber`: it receives its subscription, then values within the demand it
    /// signals, then at most one completion, as ``Publisher/receive(subscriber:)`` states.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
      upstream.subscribe(Inner(downstream: subscriber, prefix: prefix, file: file, line: line))
    }

    /// What `assertNoFailure` subscribes to upstream.
    @usableFromInline
    struct Inner<Downstream: Subscriber>: Subscriber, CustomStringConvertible, CustomReflectable,
      CustomPlaygroundDisplayConvertible
    where Downstream.Input == Output, Downstream.Failure == Never {
      @usableFromInline let downstream: Downstream
      @usableFromInline let prefix: String
      @usableFromInline let file: StaticString
      @usableFromInline let line: UInt
      @usableFromInline let combineIdentifier = CombineIdentifier()

      @inlinable init(downstream: Downstream, prefix: String, file: StaticString, line: UInt) {
        self.downstream = downstream
        self.prefix = prefix
        self.file = file
        self.line = line
      }

      @inlinable func receive(subscription: any Subscription) {
        downstream.receive(subscription: subscription)
      }
      @inlinable func receive(_ input: Output) -> Subscribers.Demand { downstream.receive(input) }
      @inlinable func receive(completion: Subscribers.Completion<Upstream.Failure>) {
        switch completion {
        case .finished: downstream.receive(completion: .finished)
        case .failure(let error):
          fatalError((prefix.isEmpty ? "" : prefix + ": ") + "\(error)", file: file, line: line)
        }
      }

      @usableFromInline var description: String { "AssertNoFailure" }
      @usableFromInline var customMirror: Mirror {
        Mirror(self, children: [("file", file as Any), ("line", line), ("prefix", prefix)])
      }
      @usableFromInline var playgroundDescription: Any { description }
    }
  }
}

extension Publisher {
  /// Stops the program, printing `prefix: error`, if this publisher fails; use where a failure
  /// is a programming error.
  public func assertNoFailure(_ prefix: String = "", file: StaticString = #file, line: UInt = #line)
    -> Publishers.AssertNoFailure<Self>
  {
    Publishers.AssertNoFailure(upstream: self, prefix: prefix, file: file, line: line)
  }
}
