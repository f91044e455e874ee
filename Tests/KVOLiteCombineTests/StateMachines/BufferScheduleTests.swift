#if DEBUG
  import KVOLiteCombine
  import KVOLiteTestSupport
  import Testing

  /// Every interleaving of the callers of a shipped `buffer(size: 2, prefetch: .byRequest,
  /// whenFull: .dropOldest)` (its `BufferInner`, its machine, its lock, its drains), run one
  /// thread at a time by ``ThreadScheduler``: upstream handing over its subscription
  /// (downstream is handed its own on that thread, after upstream is asked), sending three
  /// values and finishing or failing; downstream asking for one value from inside
  /// `receive(subscription:)` and one more from inside each `receive` (so that a drain on
  /// another thread would meet it there), and, once subscribed, for one more, then another or
  /// cancelling. Combine's contract holds, values in order (some dropped when full); unless
  /// downstream cancelled, a failure always comes.
  @Suite("Buffer schedules")
  struct BufferScheduleTests {
    final class World: @unchecked Sendable {
      let upstream = ManualPublisher<Int, TestError>(subscribesAtOnce: false)
      let subscriber = ContractSubscriber<Int, TestError>(
        initial: .max(1), requestingInside: .max(1), inOrder: (<))

      init() {
        upstream.buffer(size: 2, prefetch: .byRequest, whenFull: .dropOldest)
          .subscribe(subscriber)
      }

      func upstreamCaller(failing: Bool) -> ThreadScheduler.Caller {
        .init("upstream") { [self] in
          upstream.sendSubscription()
          for value in 1...3 {
            subscriber.willSend(value)
            upstream.send(value)
          }
          subscriber.willComplete()
          upstream.send(completion: failing ? .failure(TestError()) : .finished)
        }
      }

      func downstreamCaller(cancelling: Bool) -> ThreadScheduler.Caller {
        .init("downstream") { [self] in
          ThreadScheduler.waitUntil("subscribed") { self.subscriber.isSubscribed }
          subscriber.request(.max(1))
          if cancelling { subscriber.cancel() } else { subscriber.request(.max(1)) }
        }
      }

      /// What is wrong at the end.
      func atEnd(failing: Bool, cancelling: Bool) -> String? {
        if let violation = subscriber.violation { return violation }
        guard !failing || cancelling || subscriber.completions == 1 else {
          return "no completion: \(subscriber.events)"
        }
        return nil
      }
    }

    @Test(
      "subscribe, values, finish or fail, requests and cancel: the contract holds in every interleaving",
      arguments: [(false, false, 108), (true, false, 108), (false, true, 89), (true, true, 89)])
    func everyInterleaving(_ failing: Bool, _ cancelling: Bool, _ interleavings: Int) {
      let report = ThreadScheduler.explore(
        preemptions: 2,
        setUp: { () -> (World, [ThreadScheduler.Caller]) in
          let world = World()
          return (
            world,
            [
              world.upstreamCaller(failing: failing),
              world.downstreamCaller(cancelling: cancelling),
            ]
          )
        },
        invariant: { $0.subscriber.violation },
        atEnd: { $0.atEnd(failing: failing, cancelling: cancelling) })
      #expect(report.failure == nil, "\(report)")
      #expect(report.interleavings == interleavings && !report.truncated, "\(report)")
    }
  }
#endif
