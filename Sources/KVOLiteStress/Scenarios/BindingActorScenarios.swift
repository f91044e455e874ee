import Dispatch
import KVOLiteBridge
import KVOLiteTestSupport

/// The actor a stress view model is isolated to: the binding writes the view model only there.
/// It runs its jobs on a dispatch queue, so that code can tell whether it runs on the actor.
actor StressActor {
  static let shared = StressActor()
  private let executor = QueueExecutor()

  nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

  /// Whether the calling code runs on the actor.
  static var isCurrent: Bool { DispatchQueue.getSpecific(key: QueueExecutor.key) == true }

  /// Runs `body` on the actor and returns what it returns.
  func run<Result: Sendable>(_ body: @Sendable () -> Result) -> Result { body() }
}

/// An executor that runs its jobs on one dispatch queue, marked so that code can recognize it.
final class QueueExecutor: SerialExecutor {
  static let key = DispatchSpecificKey<Bool>()
  private let queue = DispatchQueue(label: "StressActor")

  init() { queue.setSpecific(key: Self.key, value: true) }

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    queue.async { job.runSynchronously(on: self.asUnownedSerialExecutor()) }
  }
}

/// Runs `body` on ``StressActor`` and returns what it returns, blocking the calling thread (a
/// stress thread, not one of the actors' threads) until then. By then `body`, and what it
/// captured, is released: the task lets go of it before it signals, so that a scenario that
/// counts live objects once its threads are done does not count what a finishing task holds.
func onStressActor<Result: Sendable>(_ body: @escaping @Sendable () async -> Result) -> Result {
  let done = DispatchSemaphore(value: 0)
  let call = ActorCall(body)
  Task {
    await call.run()
    done.signal()
  }
  done.wait()
  return call.result!
}

/// A call ``onStressActor(_:)`` hands to its task: the body, until the task takes it, then the
/// result.
private final class ActorCall<Result: Sendable>: @unchecked Sendable {
  // @unchecked: the task touches `body` and `result`, then signals; the caller reads `result`
  // after the signal.
  private var body: (@Sendable () async -> Result)?
  private(set) var result: Result?

  init(_ body: @escaping @Sendable () async -> Result) { self.body = body }

  /// Calls the body and releases it (and what it captured) before returning.
  func run() async {
    let body = self.body.take()!
    result = await body()
  }
}

/// A binding made for a view model on an actor, round by round (see
/// ``BindingRoundScenarios``): two threads set the model, which crosses in tasks on the actor;
/// the view model is set on the actor; the binding is released, cancelled or both while
/// crossings are pending.
enum BindingActorScenarios {
  static var all: [StressScenario] { [viewModelOnActor] }

  static let perRound = BindingRoundScenarios.perRound

  /// Threads 0 and 2 set the model; thread 1 sets the view model on the actor (all its writes
  /// of the round in one turn of the actor). Once they stop, the actor's pending crossings make
  /// both sides equal; every fourth round, each thread lets go of its part as soon as it is
  /// done, while crossings are still pending.
  static let viewModelOnActor = StressScenario(
    name: "bindings: a view model on an actor, its model written from threads"
  ) { iterations in
    var report = StressReport()
    let baseline = liveObjects.load(ordering: .relaxed)
    let rounds = max(1, iterations / perRound)
    let checked = Counter()
    let disagreements = Counter()
    let offActor = Counter()
    BindingRoundScenarios.runRounds(rounds) { index in
      var round = Round(Contact(), isChain: index % 2 == 1, actor: StressActor.shared)
      // Every value the view model gets from now is set on the actor.
      round.viewModelExtras = [
        round.viewModel!.$name.dropFirst().sink { _ in
          if !StressActor.isCurrent { offActor.increment() }
        }
      ]
      return round
    } body: { worker, index, round, middle in
      if worker == 1, let viewModel = round.viewModel {
        onStressActor {
          await StressActor.shared.run {
            for step in 0..<perRound {
              viewModel.name = Stamp.string(writer: 1, index: index * perRound + step)
            }
          }
        }
      } else if worker != 1 {
        BindingRoundScenarios.write(worker, index, round)
      }
      guard index % 4 != 3 else { return }
      middle.arriveAndWait()
      if worker == 0, let contact = round.contact, let viewModel = round.watched {
        let isChain = round.isChain
        // The crossings still pending are tasks already enqueued: each new turn on the actor
        // comes after them.
        let settled = (0..<1_000).contains { _ in
          onStressActor {
            await StressActor.shared.run {
              viewModel.name == (isChain ? contact.address.street : contact.name)
            }
          }
        }
        checked.increment()
        if !settled { disagreements.increment() }
      }
      middle.arriveAndWait()
    }
    report.count("rounds", rounds)
    report.count("rounds compared", checked.count)
    report.expect("rounds whose sides did not settle equal", disagreements.count, 0)
    report.expect("values set on the view model off its actor", offActor.count, 0)
    report.expect("objects left alive", liveObjects.load(ordering: .relaxed), baseline)
    return report
  }

  typealias Round = BindingRoundScenarios.Round
}
