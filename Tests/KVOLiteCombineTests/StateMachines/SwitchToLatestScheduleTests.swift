#if DEBUG
  import KVOLiteCombine
  import KVOLiteTestSupport
  import Testing

  /// Every interleaving of the callers of a shipped `switchToLatest` (its
  /// `SwitchToLatestInner`, its machine, its locks), run one thread at a time by
  /// ``ThreadScheduler``: upstream sending publisher 1 (subscribed on its thread), then
  /// publisher 2 (which cancels 1), finishing 2, then finishing or failing; publisher 1 sending
  /// two values, each once asked, then finishing; downstream asking for `first`, then for one
  /// more or cancelling. Combine's contract holds, values in order; unless downstream
  /// cancelled, exactly one completion comes: the finish once upstream and publisher 2 have
  /// finished, or upstream's failure (after which a value of publisher 1 under way may still
  /// come, as in Combine).
  @Suite("SwitchToLatest schedules")
  struct SwitchToLatestScheduleTests {
    typealias Inner = ManualPublisher<Int, TestError>

    final class World: @unchecked Sendable {
      let upstream = ManualPublisher<Inner, TestError>()
      let publishers = [Inner(), Inner()]
      let subscriber: ContractSubscriber<Int, TestError>

      init(failing: Bool) {
        subscriber = ContractSubscriber(
          initial: .none, inOrder: (<), valuesAfterCompletion: failing)
        upstream.switchToLatest().subscribe(subscriber)
      }

      func upstreamCaller(failing: Bool) -> ThreadScheduler.Caller {
        .init("upstream") { [self] in
          upstream.send(publishers[0])
          upstream.send(publishers[1])
          subscriber.willComplete()
          publishers[1].send(completion: .finished)
          subscriber.willComplete()
          upstream.send(completion: failing ? .failure(TestError()) : .finished)
        }
      }

      /// Publisher 1: once subscribed, two values, each once asked (or until cancelled); then
      /// its completion (none of which goes out if it was never subscribed).
      func firstPublisherCaller() -> ThreadScheduler.Caller {
        let publisher = publishers[0]
        return .init("publisher 1") { [self] in
          // Upstream cancelled before sending it: never subscribed.
          ThreadScheduler.waitUntil("subscribed") {
            publisher.isSubscribed || self.upstream.isCancelled
          }
          for value in 1...2 {
            ThreadScheduler.waitUntil("asked") {
              publisher.canSend || publisher.isOver || !publisher.isSubscribed
            }
            subscriber.willSend(value)
            publisher.send(value)
          }
          subscriber.willComplete()
          publisher.send(completion: .finished)
        }
      }

      func downstreamCaller(first: Subscribers.Demand, thenCancel: Bool) -> ThreadScheduler.Caller {
        .init("downstream") { [self] in
          subscriber.request(first)
          if thenCancel { subscriber.cancel() } else { subscriber.request(.max(1)) }
        }
      }

      /// What is wrong at the end.
      func atEnd(thenCancel: Bool) -> String? {
        if let violation = subscriber.violation { return violation }
        guard thenCancel || subscriber.completions == 1 else {
          return "\(subscriber.completions) completions: \(subscriber.events)"
        }
        return nil
      }
    }

    @Test(
      "switch, values once asked, finish or fail, request and cancel: the contract holds in every interleaving",
      arguments: [
        (Subscribers.Demand.unlimited, false, false, 246), (.max(1), false, false, 252),
        (.max(1), true, false, 190), (.max(2), true, false, 184), (.unlimited, false, true, 246),
        (.max(1), true, true, 190),
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
              world.upstreamCaller(failing: failing), world.firstPublisherCaller(),
            ]
          )
        },
        invariant: { $0.subscriber.violation },
        atEnd: { $0.atEnd(thenCancel: thenCancel) })
      #expect(report.failure == nil, "\(report)")
      #expect(report.interleavings == interleavings && !report.truncated, "\(report)")
    }
  }
#endif
