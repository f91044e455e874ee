import KVOLiteBridge
import KVOLiteTestSupport
import Synchronization

/// What a two-way binding holds once it is cancelled: nothing. Round by round, one thread
/// writes the model while another cancels the binding in the middle of the writes (outside any
/// delivery) and lets go of the view model; once the writer has let go of the model too, both
/// must be gone at once — a crossing that was in progress when `cancel()` was called (on the
/// writer's thread, or in a task on the actor in odd rounds) has let go of them before
/// `cancel()` returned, and none starts after it.
enum BindingReleaseScenarios {
  static var all: [StressScenario] { [nothingHeldAfterCancel] }

  static let perRound = BindingRoundScenarios.perRound

  /// A round's parties, handed from the thread that makes them to the other.
  struct Parties: @unchecked Sendable {
    // @unchecked: each thread keeps one party; the binding is thread-safe.
    var contact: Contact?
    var viewModel: BindingRoundScenarios.RoundViewModel?
  }

  static let nothingHeldAfterCancel = StressScenario(
    name: "bindings: once cancel() returns, the binding holds neither side"
  ) { iterations in
    var report = StressReport()
    let baseline = liveObjects.load(ordering: .relaxed)
    let rounds = max(1, iterations / perRound)
    let barrier = RoundBarrier(count: 2)
    let handoff = Locked<Parties?>(nil)
    let written = Atomic<Int>(0)
    let modelsHeld = Counter()
    let viewModelsHeld = Counter()
    let cancelledWhileWriting = Counter()
    race(workers: 2) { worker in
      for index in 0..<rounds {
        if worker == 0 {
          let contact = Contact()
          let actor: (any Actor)? = index % 2 == 1 ? StressActor.shared : nil
          let viewModel = BindingRoundScenarios.RoundViewModel(contact, \.name, actor: actor)
          handoff.withLock { $0 = Parties(contact: contact, viewModel: viewModel) }
        }
        barrier.arriveAndWait()
        var parties = handoff.withLock { $0! }
        barrier.arriveAndWait()
        weak let weakContact = parties.contact
        weak let weakViewModel = parties.viewModel
        if worker == 0 {
          handoff.withLock { $0 = nil }
          parties.viewModel = nil
          let contact = parties.contact.take()!
          for step in 0..<perRound {
            contact.name = Stamp.string(writer: 0, index: index * perRound + step)
            written.add(1, ordering: .relaxed)
          }
        } else {
          parties.contact = nil
          let viewModel = parties.viewModel.take()!
          // In the middle of the writes: after some of them (the writer counts each round's).
          let start = index * perRound
          while written.load(ordering: .relaxed) - start < 1 + index % 64 { spin(50) }
          viewModel.binding?.cancel()
          if written.load(ordering: .relaxed) - start < perRound {
            cancelledWhileWriting.increment()
          }
        }
        // Each thread has let go of its party (the writer's model, the canceller's view model
        // and, with it, the binding's cancellable).
        barrier.arriveAndWait()
        if worker == 1 {
          if weakContact != nil { modelsHeld.increment() }
          if weakViewModel != nil { viewModelsHeld.increment() }
        }
        barrier.arriveAndWait()
      }
    }
    report.count("rounds", rounds)
    report.count("cancelled while the model was being written", cancelledWhileWriting.count)
    report.expect("rounds whose model was still held after cancel()", modelsHeld.count, 0)
    report.expect("rounds whose view model was still held", viewModelsHeld.count, 0)
    report.expect("objects left alive", liveObjects.load(ordering: .relaxed), baseline)
    return report
  }
}
