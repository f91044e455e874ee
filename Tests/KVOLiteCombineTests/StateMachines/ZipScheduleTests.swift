#if DEBUG
  import KVOLiteCombine
  import KVOLiteTestSupport
  import Testing

  /// Every interleaving of the callers of a shipped `zip` (its `ZipInner`, its machine, its
  /// locks), run one thread at a time by ``ThreadScheduler``: two upstreams, each handing over
  /// its subscription, sending one value once asked and finishing (or one failing), and
  /// downstream, once subscribed, cancelling — or asking for one tuple and, from inside its
  /// `receive`, for another. Combine's contract holds, and exactly one completion comes unless
  /// downstream cancelled; with no failure and no cancel, the one tuple comes before it.
  @Suite("Zip schedules")
  struct ZipScheduleTests {
    final class World: @unchecked Sendable {
      let upstreams = [
        ManualPublisher<Int, TestError>(subscribesAtOnce: false),
        ManualPublisher<Int, TestError>(subscribesAtOnce: false),
      ]
      let subscriber: ContractSubscriber<(Int, Int), TestError>

      init(cancelling: Bool) {
        subscriber = ContractSubscriber(
          initial: .max(1), requestingInside: cancelling ? .none : .max(1))
        upstreams[0].zip(upstreams[1]).subscribe(subscriber)
      }

      /// Upstream `index`: its subscription; its value, once asked (or cancelled); its
      /// completion.
      func upstream(_ index: Int, failing: Bool) -> ThreadScheduler.Caller {
        let upstream = upstreams[index]
        return .init("upstream \(index)") { [self] in
          upstream.sendSubscription()
          ThreadScheduler.waitUntil("asked") { upstream.canSend || upstream.isOver }
          subscriber.willSend((0, 10))  // the one tuple, which either send makes
          upstream.send(index * 10)
          subscriber.willComplete()
          upstream.send(completion: failing ? .failure(TestError()) : .finished)
        }
      }

      /// What is wrong at the end.
      func atEnd(failing: Bool, cancelling: Bool) -> String? {
        if let violation = subscriber.violation { return violation }
        let events = subscriber.events
        if !cancelling, !failing, events != ["subscription", "value((0, 10))", "finished"] {
          return "not the tuple, then finished: \(events)"
        }
        if !cancelling, subscriber.completions != 1 { return "no completion: \(events)" }
        return nil
      }
    }

    @Test(
      "subscribe, send once asked, finish or fail, cancel: the contract holds in every interleaving, and one completion comes unless cancelled",
      arguments: [(false, false, 244), (true, false, 274), (false, true, 986)])
    func everyInterleaving(_ failing: Bool, _ cancelling: Bool, _ interleavings: Int) {
      let report = ThreadScheduler.explore(
        preemptions: cancelling ? 3 : nil,
        setUp: { () -> (World, [ThreadScheduler.Caller]) in
          let world = World(cancelling: cancelling)
          var callers = [world.upstream(0, failing: false), world.upstream(1, failing: failing)]
          if cancelling {
            callers.append(
              .init("downstream") {
                ThreadScheduler.waitUntil("subscribed") { world.subscriber.isSubscribed }
                world.subscriber.cancel()
              })
          }
          return (world, callers)
        },
        invariant: { $0.subscriber.violation },
        atEnd: { $0.atEnd(failing: failing, cancelling: cancelling) })
      #expect(report.failure == nil, "\(report)")
      #expect(report.interleavings == interleavings && !report.truncated, "\(report)")
    }
  }
#endif
