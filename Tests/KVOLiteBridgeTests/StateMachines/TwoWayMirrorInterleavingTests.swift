import KVOLiteLocking
import KVOLiteTestSupport
import Testing

@testable import KVOLiteBridge

/// Every interleaving of a thread setting the model, a thread setting the view model and a
/// cancellation of the binding between them, on the binding's state machine and its gate, as
/// `TwoWayMirror` performs them, with the model (its store, then its observers, in order) and
/// the view model's `@Published` (its sets one at a time: publish, store, then what was asked
/// to run after the store) simulated step by step. At quiescence both sides are equal; nothing
/// crosses after `cancel()` returns; the gate ends empty.
@Suite("Two-way binding interleavings")
struct TwoWayMirrorInterleavingTests {
  typealias Step = SimulatedThread.Step

  final class World {
    var state: TwoWayMirrorState<MirrorModel, String>
    let crossings = InFlightGate()
    let modelObject = MirrorModel()
    /// The model's key, and the view model's stored property.
    var model = "start"
    var viewModel = "start"
    /// A model observer registered before the binding that ends every name with "!".
    let normalizes: Bool
    /// The binding's observation of the model and subscription of the view model.
    var observationLive = true
    var subscriptionLive = true
    /// Deliveries of the binding's observation in progress (its invalidation waits for them).
    var observationDeliveries = 0
    /// The thread in the middle of a set of the view model (`@Published` takes them one at a
    /// time, recursively), and how deep.
    var setsHolder: String?
    var setsDepth = 0
    /// What each crossing thread writes to the view model.
    var writing: [String: String] = [:]
    var cancelReturned = false
    var violation: String?
    var threads: [SimulatedThread] = []

    init(normalizes: Bool) {
      self.normalizes = normalizes
      state = TwoWayMirrorState(model: modelObject, crossesOnActor: false)
      state.bound!.shown = "start"
    }

    func identity(_ thread: SimulatedThread) -> ThreadIdentity {
      ThreadIdentity(address: UInt(bitPattern: ObjectIdentifier(thread).hashValue))
    }

    // Steps that touch different shared state commute, so a step may do several things when
    // no other thread's step touches what both parts touch: the interleavings it leaves out
    // are the same as ones explored. (The store of the model touches the model; a transition,
    // the machine and the gate; a view model's turn, its turn and the machine.)

    /// A set of the model's key on `thread`: the store, then the observers in order (the
    /// normalizer, then the binding's observation: its gate entered, its transition).
    func setModel(_ thread: SimulatedThread, _ value: String) -> [Step] {
      [
        .init { [self] in
          model = value
          if normalizes, !value.hasSuffix("!") {
            // The normalizer sets the model again, at once; the binding hears of this set after.
            thread.then(setModel(thread, value + "!") + [observe(thread)])
          } else {
            observe(thread).run()
          }
        }
      ]
    }

    /// The binding's observation of the model delivering: `TwoWayMirror.modelChanged()`.
    func observe(_ thread: SimulatedThread) -> Step {
      .init { [self] in
        guard observationLive else { return }
        observationDeliveries += 1
        modelChanged(thread) { [self] in observationDeliveries -= 1 }
      }
    }

    /// `TwoWayMirror.modelChanged()`: the gate entered and the transition made, then what it
    /// asks for, then the gate left (and `done`).
    func modelChanged(_ thread: SimulatedThread, done: @escaping () -> Void = {}) {
      guard crossings.enter() else { return done() }
      let next = state.modelChanged(identity(thread))
      let leave = Step { [self] in
        crossings.leave()
        done()
      }
      guard case .cross(_, let shown) = next else { return thread.then(leave) }
      thread.then(cross(thread, shown) + [leave])
    }

    /// One turn of `crossPending`: read the model and write the view model unless it shows
    /// the value, then the transition that says whether to cross again.
    func cross(_ thread: SimulatedThread, _ shown: String?) -> [Step] {
      let crossed = Step { [self] in
        if let (_, shown) = state.crossed() { thread.then(cross(thread, shown)) }
      }
      return [
        .init { [self] in
          let value = model
          guard shown != value else { return crossed.run() }
          if cancelReturned { violation = "crossed to the view model after cancel() returned" }
          writing[thread.name] = value
          thread.then(setViewModel(thread, value) + [crossed])
        }
      ]
    }

    /// A set of the view model's `@Published` property on `thread`: its turn and the
    /// publication to the binding's subscription, then the store and what the subscription
    /// asked to run after it, then the end of its turn.
    func setViewModel(_ thread: SimulatedThread, _ value: String) -> [Step] {
      var afterStore: [Step] = []
      let store = Step { [self] in
        viewModel = value
        if writing[thread.name] == value { writing[thread.name] = nil }
        let release = Step { [self] in
          setsDepth -= 1
          if setsDepth == 0 { setsHolder = nil }
        }
        if afterStore.isEmpty { release.run() } else { thread.then(afterStore + [release]) }
      }
      let turn = { [self] in
        setsHolder = thread.name
        setsDepth += 1
        thread.then(store)
        // Its steps go before the store.
        published(thread, value, afterStore: { afterStore.append($0) })
      }
      return [.init(canRun: { [self] in setsHolder == nil || setsHolder == thread.name }, turn)]
    }

    /// `TwoWayMirror.viewModelPublished(_:)` (its gate, its transition), then, for an
    /// adjustment, its caller's request to run `modelChanged()` after the store.
    func published(_ thread: SimulatedThread, _ value: String, afterStore: @escaping (Step) -> Void)
    {
      guard subscriptionLive, crossings.enter() else { return }
      let me = identity(thread)
      let leave = Step { [self] in crossings.leave() }
      switch state.viewModelPublished(value, me) {
      case .ignore:
        leave.run()
      case .checkEcho:
        if writing[thread.name] == value { _ = state.showEcho(value) }
        leave.run()
      case .write(_, let replaced):
        let wrote = Step { [self] in
          if state.wrote(me) == .crossAfterStore {
            afterStore(.init { [self] in modelChanged(thread) })
          }
          crossings.leave()
        }
        guard replaced != value else { return thread.then(wrote) }
        if cancelReturned { violation = "wrote to the model after cancel() returned" }
        thread.then(setModel(thread, value) + [wrote])
      }
    }

    /// `TwoWayMirror.cancel()`: the transition and the observation's end, the wait for its
    /// deliveries and the subscription's end and the gate's closing, the wait for the gate.
    func cancel() -> SimulatedThread {
      SimulatedThread(
        "cancel",
        [
          .init { [self] in
            _ = state.cancel()
            observationLive = false
          },
          .init(canRun: { [self] in observationDeliveries == 0 }) { [self] in
            subscriptionLive = false
            crossings.close()
          },
          .init(canRun: { [self] in crossings.isIdle }) { [self] in cancelReturned = true },
        ])
    }

    func writer(_ name: String, _ set: (SimulatedThread) -> [Step]) -> SimulatedThread {
      let thread = SimulatedThread(name)
      thread.then(set(thread))
      return thread
    }
  }

  static func explore(
    normalizes: Bool = false, cancels: Bool = false, modelWriters: Int = 1
  ) -> InterleavingExplorer.Report {
    InterleavingExplorer.explore(
      limit: 50_000,
      setUp: { () -> (World, [InterleavingExplorer.Caller]) in
        let world = World(normalizes: normalizes)
        var threads = (0..<modelWriters).map { index in
          world.writer("model \(index)") { world.setModel($0, "m\(index)") }
        }
        threads.append(world.writer("view model") { world.setViewModel($0, "v") })
        if cancels { threads.append(world.cancel()) }
        world.threads = threads
        return (world, threads.map(\.caller))
      },
      invariant: { $0.violation },
      atEnd: { world in
        if !world.crossings.isIdle { return "a crossing is still counted" }
        if world.setsHolder != nil { return "a set of the view model never ended" }
        guard !cancels else { return nil }
        return world.model == world.viewModel
          ? nil : "the sides differ: model \(world.model), view model \(world.viewModel)"
      })
  }

  @Test("a writer on each side: both sides equal once they stop")
  func writers() {
    let report = Self.explore()
    #expect(report.failure == nil, "\(report)")
    #expect(report.interleavings == 68)
    #expect(!report.truncated)
  }

  @Test("a writer on each side and a model observer that adjusts every value: both sides equal")
  func adjustingObserver() {
    let report = Self.explore(normalizes: true)
    #expect(report.failure == nil, "\(report)")
    #expect(report.interleavings == 12_516)
    #expect(!report.truncated)
  }

  @Test("a writer on each side and a cancellation: nothing crosses after cancel() returns")
  func cancellation() {
    let report = Self.explore(cancels: true)
    #expect(report.failure == nil, "\(report)")
    #expect(report.interleavings == 1183)
    #expect(!report.truncated)
  }
}
