#if DEBUG
  import KVOLiteCombine
  import KVOLiteTestSupport
  import Testing

  /// Every interleaving of two threads of a concurrent queue (``QueueScheduler``: each takes
  /// the oldest action waiting and runs it) running the actions that a shipped `receive(on:)` or
  /// `delay` scheduled for three values and the completion, through the subscription's serial
  /// drain (`SerialDrain`, its machine, its lock), run one thread at a time by
  /// ``ThreadScheduler``: each event reaches the subscriber once, in the order it was scheduled,
  /// one at a time, whichever thread runs which action when; a subscriber that cancels inside
  /// a `receive` receives nothing after (the drain drops what waits, and discards what the
  /// queue runs later).
  @Suite("Serial drain schedules")
  struct DrainScheduleTests {
    enum Operator: String, CustomStringConvertible {
      case receiveOn
      case delay

      var description: String { rawValue }
    }

    final class World: @unchecked Sendable {
      let upstream = ManualPublisher<Int, TestError>()
      let scheduler = QueueScheduler()
      let subscriber: ContractSubscriber<Int, TestError>

      /// Three values sent, and the completion if `finishing`: their actions scheduled in
      /// order, waiting in the queue. (Once the completion has arrived, a cancel does nothing,
      /// as in Combine.)
      init(_ hop: Operator, finishing: Bool, cancelsAtValue: Int?) {
        subscriber = ContractSubscriber(cancelsAtValue: cancelsAtValue, inOrder: (<))
        switch hop {
        case .receiveOn: upstream.receive(on: scheduler).subscribe(subscriber)
        case .delay: upstream.delay(for: 0, scheduler: scheduler).subscribe(subscriber)
        }
        for value in 1...3 { upstream.send(value) }
        if finishing { upstream.send(completion: .finished) }
      }
    }

    /// Explores two threads taking and running two actions each (the completion's too, unless
    /// the subscriber cancels inside the `receive` of value `cancelsAtValue`); checks that the
    /// subscriber received exactly `expected`.
    static func explore(
      _ hop: Operator, cancelsAtValue: Int? = nil, expected: [String]
    ) -> ThreadScheduler.Report {
      ThreadScheduler.explore(
        preemptions: 2,
        setUp: { () -> (World, [ThreadScheduler.Caller]) in
          let world = World(hop, finishing: cancelsAtValue == nil, cancelsAtValue: cancelsAtValue)
          let scheduler = world.scheduler
          return (
            world,
            (1...2).map { thread in
              .init("thread \(thread)") {
                scheduler.runNext()
                scheduler.runNext()
              }
            }
          )
        },
        invariant: { $0.subscriber.violation },
        atEnd: { world in
          let events = world.subscriber.events
          return world.subscriber.violation
            ?? (events == expected ? nil : "received \(events), not \(expected)")
        })
    }

    @Test(
      "three values and the completion, run by two threads: each once, in order, one at a time",
      arguments: [(Operator.receiveOn, 86), (.delay, 86)])
    func inOrder(_ hop: Operator, _ interleavings: Int) {
      let report = Self.explore(
        hop, expected: ["subscription", "value(1)", "value(2)", "value(3)", "finished"])
      #expect(report.failure == nil, "\(report)")
      #expect(report.interleavings == interleavings && !report.truncated, "\(report)")
    }

    @Test(
      "a cancel inside the second value's receive: nothing after it, whichever thread runs what",
      arguments: [(Operator.receiveOn, 88), (.delay, 88)])
    func cancelInside(_ hop: Operator, _ interleavings: Int) {
      let report = Self.explore(
        hop, cancelsAtValue: 2, expected: ["subscription", "value(1)", "value(2)"])
      #expect(report.failure == nil, "\(report)")
      #expect(report.interleavings == interleavings && !report.truncated, "\(report)")
    }
  }
#endif
