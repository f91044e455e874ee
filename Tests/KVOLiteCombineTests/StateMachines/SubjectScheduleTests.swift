#if DEBUG
  import KVOLiteCombine
  import KVOLiteTestSupport
  import Testing

  /// Every interleaving of a subscriber subscribing to a shipped subject (its core, its
  /// conduit, their machines and locks) and asking for values from inside
  /// `receive(subscription:)` — then cancelling, or cancelling there — with a sender and a
  /// completer, run one thread at a time by ``ThreadScheduler``: Combine's contract holds (the
  /// subscription first, so a completion never overtakes it; nothing after the completion;
  /// nothing beyond the demand; nothing from a send that started after the cancel returned),
  /// and a subscriber that cancels inside `receive(subscription:)` receives nothing more.
  @Suite("Subject schedules")
  struct SubjectScheduleTests {
    /// The subjects, by kind of subject machine.
    enum Kind: String, CustomStringConvertible {
      case passthrough
      case currentValue
      /// `ObservableObjectPublisher`, which ignores demand and never completes.
      case objectWillChange

      var description: String { rawValue }
    }

    /// One subject of `kind` and its subscriber.
    final class World: @unchecked Sendable {
      let subscriber: ContractSubscriber<Int, TestError>
      let subscribe: (ContractSubscriber<Int, TestError>) -> Void
      let send: () -> Void
      let complete: (() -> Void)?

      init(_ kind: Kind, asking: Subscribers.Demand, cancelsInside: Bool) {
        subscriber = ContractSubscriber(
          initial: asking, cancelsInsideSubscription: cancelsInside,
          countsDemand: kind != .objectWillChange)
        switch kind {
        case .passthrough:
          let subject = PassthroughSubject<Int, TestError>()
          (subscribe, send) = ({ subject.subscribe($0) }, { subject.send(1) })
          complete = { subject.send(completion: .finished) }
        case .currentValue:
          let subject = CurrentValueSubject<Int, TestError>(0)
          (subscribe, send) = ({ subject.subscribe($0) }, { subject.send(1) })
          complete = { subject.send(completion: .finished) }
        case .objectWillChange:
          let publisher = ObservableObjectPublisher()
          subscribe = { publisher.map { 1 }.setFailureType(to: TestError.self).subscribe($0) }
          (send, complete) = ({ publisher.send() }, nil)
        }
      }
    }

    /// Explores a subscriber asking for `asking` (then cancelling, or cancelling inside
    /// `receive(subscription:)`), a sender and a completer (none for `objectWillChange`).
    static func explore(
      _ kind: Kind, asking: Subscribers.Demand, cancelsInside: Bool
    ) -> ThreadScheduler.Report {
      ThreadScheduler.explore(
        setUp: { () -> (World, [ThreadScheduler.Caller]) in
          let world = World(kind, asking: asking, cancelsInside: cancelsInside)
          let subscriber = world.subscriber
          var callers: [ThreadScheduler.Caller] = [
            .init("subscribe") {
              world.subscribe(subscriber)
              if !cancelsInside { subscriber.cancel() }
            },
            .init("send") {
              subscriber.willSend(1)
              world.send()
            },
          ]
          if let complete = world.complete {
            callers.append(
              .init("complete") {
                subscriber.willComplete()
                complete()
              })
          }
          return (world, callers)
        },
        invariant: { $0.subscriber.violation },
        atEnd: { $0.subscriber.violation })
    }

    @Test(
      "subscribe, send, complete and cancel: the contract holds in every interleaving",
      arguments: [
        (Kind.passthrough, Subscribers.Demand.unlimited, 773), (.passthrough, .max(1), 773),
        (.currentValue, .max(1), 1_074), (.currentValue, .unlimited, 1_074),
        (.objectWillChange, .none, 18),
      ])
    func everyInterleaving(_ kind: Kind, _ asking: Subscribers.Demand, _ interleavings: Int) {
      let report = Self.explore(kind, asking: asking, cancelsInside: false)
      #expect(report.failure == nil, "\(report)")
      #expect(report.interleavings == interleavings && !report.truncated, "\(report)")
    }

    @Test(
      "a subscriber that cancels inside receive(subscription:) receives nothing after, a completion sent meanwhile included",
      arguments: [
        (Kind.passthrough, Subscribers.Demand.unlimited, 233), (.passthrough, .max(1), 233),
        (.currentValue, .max(1), 339), (.currentValue, .unlimited, 339),
        (.objectWillChange, .none, 6),
      ])
    func cancelInsideTheHandover(
      _ kind: Kind, _ asking: Subscribers.Demand, _ interleavings: Int
    ) {
      let report = Self.explore(kind, asking: asking, cancelsInside: true)
      #expect(report.failure == nil, "\(report)")
      #expect(report.interleavings == interleavings && !report.truncated, "\(report)")
    }
  }
#endif
