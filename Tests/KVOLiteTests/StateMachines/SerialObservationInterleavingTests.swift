import KVOLiteLocking
import KVOLiteTestSupport
import Testing

@testable import KVOLite

/// Every interleaving of threads changing what an element observation follows (store, reserve,
/// read, fill, take) and of its invalidation, on its state machine and its calls' gate, as
/// ``SerialObservation`` performs them: the handler is never called on two threads at once,
/// nothing is called after `invalidate()` returns, and once the threads stop, the last value
/// delivered is the model's.
@Suite("Element observation interleavings")
struct SerialObservationInterleavingTests {
  final class World {
    var state = SerialObservationState<Int>(memberships: [])
    let calls = InFlightGate()
    /// The model: the value the changes store.
    var model = 0
    var delivered: [Int] = []
    var inHandler = 0
    var invalidateReturned = false
    var violation: String?
    var threads: [SimulatedThread] = []

    /// A thread storing `value`, then hearing of it: it reserves a place, reads the model
    /// (after reserving), fills the place, and takes the changes if nobody does.
    func change(to value: Int, _ name: String) -> SimulatedThread {
      let thread = SimulatedThread(name)
      let me = ThreadIdentity(address: UInt(value) << 4)
      var place: Int?
      var read = 0
      // The read and the fill are one step: the read touches only the model, the fill only
      // the machine, so any interleaving between them is one of those explored.
      thread.then(
        .init { [self] in model = value },
        .init { [self] in place = state.reserve() },
        .init { [self] in
          read = model
          guard let place else { return }
          _ = state.fill(place, with: read)
          guard case .take(let nested) = state.startTaking(me) else { return }
          thread.then(take(thread, nested: nested))
        })
      return thread
    }

    /// Taking: the next ready change, then its call (the gate, the handler), then again.
    func take(_ thread: SimulatedThread, nested: Bool) -> [SimulatedThread.Step] {
      [
        .init { [self] in
          guard let change = state.next(nested: nested) else { return }
          thread.then(call(change) + take(thread, nested: nested))
        }
      ]
    }

    /// ``SerialObservation/call(_:)`` delivering `change`: enters the gate and begins the
    /// call (one step: the enter and the lock come one after the other), runs the handler,
    /// ends the call and leaves.
    func call(_ change: Int) -> [SimulatedThread.Step] {
      var calling = false
      return [
        .init { [self] in
          guard calls.enter() else { return }
          calling = state.beginCall()
          if !calling { return calls.leave() }
          if inHandler > 0 { violation = "the handler ran on two threads at once" }
          if invalidateReturned { violation = "the handler ran after invalidate() returned" }
          inHandler += 1
          delivered.append(change)
        },
        .init { [self] in
          guard calling else { return }
          inHandler -= 1
          state.endCall()
          calls.leave()
        },
      ]
    }

    /// ``SerialObservation/invalidate()``: ends the machine, then closes the gate and waits.
    func invalidate() -> SimulatedThread {
      SimulatedThread(
        "invalidate",
        [
          .init { [self] in _ = state.end() },
          .init(canRun: { [self] in calls.isIdle }) { [self] in
            calls.closeAndWait()
            invalidateReturned = true
          },
        ])
    }

    func run(_ threads: [SimulatedThread]) -> [InterleavingExplorer.Caller] {
      self.threads = threads
      return threads.map(\.caller)
    }
  }

  static func explore(
    _ scenario: @escaping (World) -> [SimulatedThread], atEnd: @escaping (World) -> String?
  ) -> InterleavingExplorer.Report {
    InterleavingExplorer.explore(
      limit: 50_000,
      setUp: { () -> (World, [InterleavingExplorer.Caller]) in
        let world = World()
        return (world, world.run(scenario(world)))
      },
      invariant: { $0.violation },
      atEnd: { world in
        if !world.calls.isIdle { return "a call is still counted" }
        return atEnd(world)
      })
  }

  @Test("two threads changing the model: one taker at a time, and the model's value delivered last")
  func twoChanges() {
    let report = Self.explore(
      { world in [world.change(to: 1, "change 1"), world.change(to: 2, "change 2")] },
      atEnd: { world in
        world.delivered.last == world.model
          ? nil : "delivered \(world.delivered), the model holds \(world.model)"
      })
    #expect(report.failure == nil, "\(report)")
    #expect(report.interleavings == 202)
    #expect(!report.truncated)
  }

  @Test("a change and an invalidation: nothing is called after invalidate() returns")
  func changeAndInvalidate() {
    let report = Self.explore(
      { world in
        [world.change(to: 1, "change 1"), world.change(to: 2, "change 2"), world.invalidate()]
      },
      atEnd: { world in world.state.pendingCount == 0 ? nil : "changes left in the queue" })
    #expect(report.failure == nil, "\(report)")
    #expect(report.interleavings == 6046)
    #expect(!report.truncated)
  }
}
