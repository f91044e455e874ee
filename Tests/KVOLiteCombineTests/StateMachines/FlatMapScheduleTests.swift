#if DEBUG
  import KVOLiteCombine
  import KVOLiteTestSupport
  import Synchronization
  import Testing

  /// Every interleaving of the callers of a shipped `flatMap(maxPublishers: .max(1))` (its
  /// `FlatMapInner`, its machine, its locks), run one thread at a time by ``ThreadScheduler``:
  /// upstream handing over its subscription, sending one value (which makes a child, subscribed
  /// on upstream's thread) and finishing or failing; the child sending two values, each once
  /// asked, and finishing; downstream asking for `first`, then for one more (which delivers a
  /// value held meanwhile) or cancelling. Combine's contract holds, values in order; with no
  /// failure and no cancel, both values come, then the completion.
  @Suite("FlatMap schedules")
  struct FlatMapScheduleTests {
    final class World: @unchecked Sendable {
      let upstream = ManualPublisher<Int, TestError>(subscribesAtOnce: false)
      let child = ManualPublisher<Int, TestError>()
      let subscriber: ContractSubscriber<Int, TestError>
      /// Whether upstream's caller is done (so a child it did not make never will be).
      let upstreamDone = Atomic<Bool>(false)

      init(failing: Bool) {
        // As in Combine, a child's value under way when upstream fails still comes after the
        // failure.
        subscriber = ContractSubscriber(
          initial: .none, inOrder: (<), valuesAfterCompletion: failing)
        let child = child
        upstream.flatMap(maxPublishers: .max(1)) { _ in child }.subscribe(subscriber)
      }

      func upstreamCaller(failing: Bool) -> ThreadScheduler.Caller {
        .init("upstream") { [self] in
          upstream.sendSubscription()
          upstream.send(0)
          subscriber.willComplete()
          upstream.send(completion: failing ? .failure(TestError()) : .finished)
          upstreamDone.store(true, ordering: .relaxed)
        }
      }

      /// The child: once subscribed, `values` values, each once asked; then its completion.
      func childCaller(values: Int = 2) -> ThreadScheduler.Caller {
        .init("child") { [self] in
          ThreadScheduler.waitUntil("subscribed") {
            self.child.isSubscribed || self.upstreamDone.load(ordering: .relaxed)
          }
          for value in 1...values {
            ThreadScheduler.waitUntil("asked") {
              self.child.canSend || self.child.isOver || !self.child.isSubscribed
            }
            subscriber.willSend(value)
            child.send(value)
          }
          subscriber.willComplete()
          child.send(completion: .finished)
        }
      }

      func downstreamCaller(first: Subscribers.Demand, thenCancel: Bool) -> ThreadScheduler.Caller {
        .init("downstream") { [self] in
          subscriber.request(first)
          if thenCancel { subscriber.cancel() } else { subscriber.request(.max(1)) }
        }
      }

      /// What is wrong at the end.
      func atEnd(thenCancel: Bool, failing: Bool) -> String? {
        if let violation = subscriber.violation { return violation }
        let events = subscriber.events
        if !thenCancel, !failing, events != ["subscription", "value(1)", "value(2)", "finished"] {
          return "not both values, then finished: \(events)"
        }
        return nil
      }
    }

    @Test(
      "a child made, its values once asked, finishes and failures, requests and cancel: the contract holds in every interleaving",
      arguments: [
        (Subscribers.Demand.max(1), false, false, 509), (.unlimited, false, false, 504),
        (.max(1), true, false, 285), (.max(1), false, true, 516),
      ])
    func everyInterleaving(
      _ first: Subscribers.Demand, _ thenCancel: Bool, _ failing: Bool, _ interleavings: Int
    ) {
      let report = ThreadScheduler.explore(
        preemptions: 2,
        setUp: { () -> (World, [ThreadScheduler.Caller]) in
          let world = World(failing: failing)
          return (
            world,
            [
              world.downstreamCaller(first: first, thenCancel: thenCancel),
              world.upstreamCaller(failing: failing), world.childCaller(),
            ]
          )
        },
        invariant: { $0.subscriber.violation },
        atEnd: { $0.atEnd(thenCancel: thenCancel, failing: failing) })
      #expect(report.failure == nil, "\(report)")
      #expect(report.interleavings == interleavings && !report.truncated, "\(report)")
    }

    @Test(
      "a value held, then taken by a request while the child finishes: it comes before the completion, in every interleaving"
    )
    func heldValueBeforeTheCompletion() {
      let report = ThreadScheduler.explore(
        preemptions: 2,
        setUp: { () -> (World, [ThreadScheduler.Caller]) in
          let world = World(failing: false)
          let subscriber = world.subscriber
          return (
            world,
            [
              world.upstreamCaller(failing: false), world.childCaller(values: 1),
              .init("downstream") { subscriber.request(.max(1)) },
            ]
          )
        },
        invariant: { $0.subscriber.violation },
        atEnd: { world in
          let events = world.subscriber.events
          return world.subscriber.violation
            ?? (events == ["subscription", "value(1)", "finished"]
              ? nil : "not the value, then finished: \(events)")
        })
      #expect(report.failure == nil, "\(report)")
      #expect(report.interleavings == 210 && !report.truncated, "\(report)")
    }
  }
#endif
