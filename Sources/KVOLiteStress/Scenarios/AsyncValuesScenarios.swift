import Foundation
import KVOLiteBridge
import KVOLiteTestSupport
import Synchronization

/// ``KeyValueObservable/values(for:options:)`` under concurrent sets, round by round: each round
/// makes a contact and three iterators of `values(for: \.name)`, each awaited in a task, while
/// two threads set the name.
///
/// - One task breaks out of its loop when it sees the value `"end"` (its iterator is dropped
///   with the subscription still open).
/// - One task is cancelled from another thread while the sets race.
/// - One task awaits while the contact is released (on whichever thread lets go of it last,
///   maybe while a set still delivers), and is cancelled after.
///
/// Every task ends; each gets the initial value first, then values in each writer's order
/// (values set while it is not awaiting are dropped, as the iterator asks for one at a time),
/// never one twice; once the first two tasks have ended, only the third one's observation is
/// left on the contact; and nothing is left alive.
enum AsyncValuesScenarios {
  static var all: [StressScenario] { [tasksRacingSets] }

  static let perRound = 32

  /// A value handed to a task (an iterator, which is not `Sendable`: it is used by the task
  /// alone once handed over).
  final class Handoff<Value>: @unchecked Sendable {
    var value: Value
    init(_ value: Value) { self.value = value }
  }

  /// A task awaiting the values of one iterator, and what it saw.
  final class Awaiter: Sendable {
    let values: SequenceChecker
    let ended = DispatchSemaphore(value: 0)
    let malformed = Counter()
    let count = Counter()
    let task: Task<Void, Never>

    /// Starts a task that awaits the values of `contact`'s name, breaking out at `"end"` if
    /// `breaksAtEnd`.
    init(_ contact: Contact, breaksAtEnd: Bool) {
      let values = SequenceChecker(sources: 2)
      let (ended, malformed, count) = (self.ended, self.malformed, self.count)
      self.values = values
      // Made here, so that it is subscribed (and has the initial value) before the sets start.
      let handoff = Handoff(Optional(contact.values(for: \.name).makeAsyncIterator()))
      /// The loop; the iterator goes when it returns.
      @Sendable func iterate() async {
        guard var iterator = handoff.value.take() else { return }
        var first = true
        while let value = await iterator.next() {
          count.increment()
          defer { first = false }
          if value == "end", breaksAtEnd { break }
          if first != value.isEmpty { malformed.increment() }
          guard !first, value != "end" else { continue }
          guard let stamp = Stamp.parse(value) else {
            malformed.increment()
            continue
          }
          values.record(source: stamp.writer, index: stamp.index, allowingGaps: true)
        }
      }
      task = Task.detached {
        await iterate()
        ended.signal()
      }
    }

    /// Waits for the task to end; `false` after 10 seconds (a hang: the round is abandoned).
    func waitForEnd() -> Bool {
      ended.wait(timeout: .now() + .seconds(10)) == .success
    }
  }

  static let tasksRacingSets = StressScenario(
    name: "values(for:): tasks iterating while sets race, cancelled, and the object released"
  ) { iterations in
    var report = StressReport()
    let baseline = liveObjects.load(ordering: .relaxed)
    let rounds = max(1, iterations / perRound)
    let barrier = RoundBarrier(count: 3)
    let handoff = Locked<(Contact, [Awaiter])?>(nil)
    let hung = Counter()
    let leftOver = Counter()
    let malformed = Counter()
    let values = Counter()
    let problems = Locked<[String]>([])
    race(workers: 3) { worker in
      for index in 0..<rounds {
        if worker == 0 {
          let contact = Contact()
          let awaiters = [
            Awaiter(contact, breaksAtEnd: true), Awaiter(contact, breaksAtEnd: false),
            Awaiter(contact, breaksAtEnd: false),
          ]
          handoff.withLock { $0 = (contact, awaiters) }
        }
        barrier.arriveAndWait()
        var (contact, awaiters): (Contact?, [Awaiter]) = handoff.withLock { $0! }
        barrier.arriveAndWait()
        if worker == 0 {
          handoff.withLock { $0 = nil }
          spin(index % 7 * 400)
          awaiters[1].task.cancel()
          if !awaiters[1].waitForEnd() { hung.increment() }
        } else {
          for step in 0..<perRound {
            contact?.name = Stamp.string(writer: worker - 1, index: index * perRound + step)
          }
        }
        barrier.arriveAndWait()
        if worker == 0 {
          // The first task breaks out at "end"; it may be between two awaits when one is set.
          var tries = 0
          while awaiters[0].ended.wait(timeout: .now()) != .success {
            contact?.name = "end"
            tries += 1
            if tries > 1_000_000 {
              hung.increment()
              break
            }
            sched_yield()
          }
          // Only the third task still observes the contact.
          if contact?.observationRegistrar.triggerCount != 1 { leftOver.increment() }
        }
        barrier.arriveAndWait()
        // The contact is released on whichever thread lets go of it last, while the third task
        // awaits; one writer sets it once more as it does.
        if worker == 1 { contact?.name = Stamp.string(writer: 0, index: (index + 1) * perRound) }
        spin(worker * 100)
        contact = nil
        barrier.arriveAndWait()
        if worker == 0 {
          awaiters[2].task.cancel()
          if !awaiters[2].waitForEnd() { hung.increment() }
          for awaiter in awaiters {
            malformed.add(awaiter.malformed.count)
            values.add(awaiter.count.count)
            let found = awaiter.values.summary.problems
            if !found.isEmpty { problems.withLock { if $0.count < 5 { $0 += found } } }
          }
        }
        awaiters = []
      }
    }
    report.count("rounds", rounds)
    report.count("values awaited", values.count)
    report.expect("tasks that did not end", hung.count, 0)
    report.expect("rounds with observations left after their tasks ended", leftOver.count, 0)
    report.expect("malformed values", malformed.count, 0)
    report.failures += problems.withLock { $0 }
    report.expect("objects left alive", liveObjects.load(ordering: .relaxed), baseline)
    return report
  }
}
