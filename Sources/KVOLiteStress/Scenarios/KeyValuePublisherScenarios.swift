import KVOLiteBridge
import KVOLiteTestSupport
import Synchronization

/// `publisher(for:)` under concurrent sets, round by round: each round observes a new model's
/// `name` (or, every other round, the chain `address.street`, whose intermediate a thread
/// replaces) with three subscriptions through `scan`, while two threads set the key.
enum KeyValuePublisherScenarios {
  static var all: [StressScenario] { [scanUnderConcurrentSets] }

  static let perRound = 16

  /// A subscriber that counts its calls and the calls that overlapped another one.
  final class CallCounter: Sendable {
    private let inside = Atomic<Int>(0)
    let overlaps = Counter()
    let calls = Counter()
    private let ended = Atomic<Bool>(false)
    let late = Counter()
    /// The last running count `scan` published.
    let last = Atomic<Int>(0)

    func receive(_ count: Int) {
      if inside.add(1, ordering: .acquiringAndReleasing).newValue > 1 { overlaps.increment() }
      if ended.load(ordering: .acquiring) { late.increment() }
      calls.increment()
      last.store(count, ordering: .relaxed)
      inside.subtract(1, ordering: .acquiringAndReleasing)
    }

    /// Marks that the subscription was cancelled: a call after this is late.
    func end() { ended.store(true, ordering: .releasing) }
  }

  /// Three subscriptions count the values through `scan`: one to the end, one that cancels
  /// itself from inside its fourth call, one that another thread cancels mid-round. Each gets
  /// one call at a time; the first loses no value (in `name` rounds, where every set notifies:
  /// in chain rounds a set of a street just replaced notifies nobody); the one cancelled from
  /// another thread gets nothing after `cancel()` returned. The model is released while
  /// subscribed in every fourth round, on whichever thread lets go of it last.
  static let scanUnderConcurrentSets = StressScenario(
    name: "publisher(for:): concurrent setters into scan"
  ) { iterations in
    var report = StressReport()
    let baseline = liveObjects.load(ordering: .relaxed)
    let rounds = max(1, iterations / perRound)
    let overlaps = Counter()
    let lost = Counter()
    let late = Counter()
    let calls = Counter()
    let barrier = RoundBarrier(count: 3)
    let handoff = Locked<(Contact, [CallCounter], [AnyCancellable])?>(nil)
    race(workers: 3) { worker in
      for index in 0..<rounds {
        let isChain = index % 2 == 1
        if worker == 0 {
          let contact = Contact()
          let counters = (0..<3).map { _ in CallCounter() }
          let publisher = contact.publisher(for: isChain ? \.address.street : \.name)
          var cancellables: [AnyCancellable] = []
          for (which, counter) in counters.enumerated() {
            let box = Locked<AnyCancellable?>(nil)
            let cancellable = publisher.scan(0) { count, _ in count + 1 }.sink { count in
              counter.receive(count)
              if which == 1, count == 4 { box.withLock { $0 }?.cancel() }
            }
            if which == 1 { box.withLock { $0 = cancellable } }
            cancellables.append(cancellable)
          }
          handoff.withLock { $0 = (contact, counters, cancellables) }
        }
        barrier.arriveAndWait()
        let (model, counters, subscriptions) = handoff.withLock { $0! }
        // Thread 2 keeps the subscriptions, the writers the model: the model is released on
        // whichever writer lets go of it last, the subscriptions on thread 2.
        var contact: Contact? = worker == 2 ? nil : model
        var cancellables = worker == 2 ? subscriptions : []
        barrier.arriveAndWait()
        if worker == 0 { handoff.withLock { $0 = nil } }
        if worker == 2 {
          spin(index % 5 * 300)
          subscriptions[2].cancel()
          counters[2].end()
          if index % 4 != 3 { barrier.arriveAndWait() }
        } else {
          for step in 0..<perRound {
            let value = Stamp.string(writer: worker, index: index * perRound + step)
            if isChain, worker == 1, step % 4 == 0 {
              contact?.address = Address(street: value)
            } else if isChain {
              contact?.address.street = value
            } else {
              contact?.name = value
            }
          }
          if index % 4 != 3 { barrier.arriveAndWait() }
        }
        if worker == 0, index % 4 != 3, !isChain {
          // Every set notified once, after the initial value.
          if counters[0].last.load(ordering: .relaxed) != 1 + 2 * perRound { lost.increment() }
        }
        // Held to here (the optimizer would release them after their last use).
        withExtendedLifetime((contact, cancellables)) {}
        (contact, cancellables) = (nil, [])
        barrier.arriveAndWait()
        if worker == 0 {
          for counter in counters {
            overlaps.add(counter.overlaps.count)
            late.add(counter.late.count)
            calls.add(counter.calls.count)
          }
        }
      }
    }
    report.count("rounds", rounds)
    report.count("values", calls.count)
    report.expect("calls that overlapped another", overlaps.count, 0)
    report.expect("rounds where scan lost a value", lost.count, 0)
    report.expect("values after cancel() returned", late.count, 0)
    report.expect("objects left alive", liveObjects.load(ordering: .relaxed), baseline)
    return report
  }
}
