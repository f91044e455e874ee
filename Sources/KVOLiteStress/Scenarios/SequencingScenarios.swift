import Dispatch
import Foundation
import KVOLiteBridge
import KVOLiteTestSupport
import Synchronization

/// Operators that move from one upstream to the next (`retry`, `append`) and the `values`
/// iterator, raced against cancels, demand and each other.
enum SequencingScenarios {
  typealias Numbered = (source: Int, index: Int)

  static var all: [StressScenario] { [retry, concatenate, values] }

  struct Failed: Error {}

  /// Each round, one thread sends numbered values into the current attempt of a `retry` and
  /// fails it every 25 values (so `retry` subscribes again), while another cancels at a random
  /// moment; some rounds the subscriber cancels itself from inside a delivery instead. Values
  /// arrive in order, at most one completion arrives, nothing after it, and the subscriber is
  /// released.
  static let retry = StressScenario(name: "operators: retry racing cancel") { iterations in
    var report = StressReport()
    let rounds = max(1, iterations / 100)
    let released = Counter()
    let attemptsMade = Counter()
    let problems = Locked<[String]>([])
    let late = Counter()
    let extraCompletions = Counter()
    for round in 0..<rounds {
      let current = Locked<PassthroughSubject<Numbered, Failed>?>(nil)
      let publisher = Deferred { () -> AnyPublisher<Numbered, Failed> in
        let attempt = PassthroughSubject<Numbered, Failed>()
        attemptsMade.increment()
        current.withLock { $0 = attempt }
        return attempt.eraseToAnyPublisher()
      }.retry(3)
      let sequences = SequenceChecker(sources: 1)
      let subscriber = SelfCancellingSubscriber<Failed>(
        sequences: sequences, cancelsAt: round % 3 == 0 ? Int.random(in: 0..<100) : nil,
        onDeinit: { released.increment() })
      publisher.subscribe(subscriber)
      race(workers: 2) { worker in
        if worker == 0 {
          for index in 0..<100 {
            let attempt = current.withLock { $0 }
            attempt?.send((0, index))
            if index % 25 == 24 { attempt?.send(completion: .failure(Failed())) }
          }
        } else if round % 3 != 0 {
          for _ in 0..<Int.random(in: 0..<200) { sched_yield() }
          subscriber.cancel()
        }
      }
      subscriber.cancel()
      current.withLock { $0 = nil }
      let (_, found) = sequences.summary
      if !found.isEmpty { problems.withLock { $0 += found } }
      late.add(subscriber.lateValues)
      if subscriber.completions > 1 { extraCompletions.increment() }
    }
    report.count("rounds", rounds)
    report.count("attempts", attemptsMade.count)
    report.failures += problems.withLock { Array($0.prefix(5)) }
    report.expect("values after the completion", late.count, 0)
    report.expect("rounds with more than one completion", extraCompletions.count, 0)
    report.expect("subscribers released", released.count, rounds)
    return report
  }

  /// Each round, one thread sends numbered values into a prefix, finishes it, then sends into
  /// the suffix (`prefix.append(suffix)`), while another requests one value at a time and,
  /// some rounds, cancels. Values arrive in order (prefix, then suffix), never more than were
  /// requested, at most one completion, nothing after it; the subscriber and the suffix are
  /// released.
  static let concatenate = StressScenario(name: "operators: append racing demand and cancel") {
    iterations in
    var report = StressReport()
    let rounds = max(1, iterations / 100)
    let released = Counter()
    let overDemand = Counter()
    let late = Counter()
    let extraCompletions = Counter()
    let problems = Locked<[String]>([])
    for round in 0..<rounds {
      let prefix = PassthroughSubject<Numbered, Failed>()
      let suffix = PassthroughSubject<Numbered, Failed>()
      let sequences = SequenceChecker(sources: 1)
      let subscriber = SelfCancellingSubscriber<Failed>(
        sequences: sequences, demand: .none,
        cancelsAt: round % 4 == 0 ? Int.random(in: 0..<100) : nil,
        onDeinit: { released.increment() })
      prefix.append(suffix).subscribe(subscriber)
      let requested = Atomic<Int>(0)
      race(workers: 2) { worker in
        if worker == 0 {
          for index in 0..<50 { prefix.send((0, index)) }
          prefix.send(completion: .finished)
          for index in 50..<100 { suffix.send((0, index)) }
          suffix.send(completion: .finished)
        } else {
          for step in 0..<100 {
            requested.add(1, ordering: .relaxed)
            subscriber.subscription?.request(.max(1))
            if round % 4 == 1, step == Int.random(in: 0..<100) { subscriber.cancel() }
            sched_yield()
          }
        }
      }
      if sequences.summary.total > requested.load(ordering: .relaxed) { overDemand.increment() }
      subscriber.cancel()
      let (_, found) = sequences.summary
      if !found.isEmpty { problems.withLock { $0 += found } }
      late.add(subscriber.lateValues)
      if subscriber.completions > 1 { extraCompletions.increment() }
    }
    report.count("rounds", rounds)
    report.failures += problems.withLock { Array($0.prefix(5)) }
    report.expect("rounds with values beyond demand", overDemand.count, 0)
    report.expect("values after the completion", late.count, 0)
    report.expect("rounds with more than one completion", extraCompletions.count, 0)
    report.expect("subscribers released", released.count, rounds)
    return report
  }

  /// Each round, two tasks iterate one `values` iterator at once while a thread sends
  /// increasing values and then finishes (or, some rounds, one task is cancelled): each task
  /// sees increasing values, no value reaches both, no value that was sent is seen twice, and
  /// both tasks end (none is left waiting).
  static let values = StressScenario(name: "values: two tasks on one iterator racing sends") {
    iterations in
    var report = StressReport()
    let rounds = max(1, iterations / 1_000)
    let problems = Counter()
    let received = Counter()
    for round in 0..<rounds {
      let subject = PassthroughSubject<Int, Never>()
      let shared = SharedIterator(subject.values.makeAsyncIterator())
      let seen = Locked<[[Int]]>([[], []])
      let done = DispatchSemaphore(value: 0)
      let ended = Counter()
      let cancelOne = round % 4 == 3
      var tasks: [Task<Void, Never>] = []
      for task in 0..<2 {
        tasks.append(
          Task.detached {
            var iterator = shared.iterator
            while let value = await iterator.next() {
              seen.withLock { $0[task].append(value) }
            }
            ended.increment()
            done.signal()
          })
      }
      var value = 0
      while seen.withLock({ $0[0].count + $0[1].count }) < 200,
        ended.count < 2
      {
        subject.send(value)
        value += 1
        if cancelOne, value == 100 { tasks[0].cancel() }
        sched_yield()
      }
      subject.send(completion: .finished)
      done.wait()
      done.wait()
      let (first, second) = seen.withLock { ($0[0], $0[1]) }
      received.add(first.count + second.count)
      for list in [first, second] where zip(list, list.dropFirst()).contains(where: { $0 >= $1 }) {
        problems.increment()
      }
      if !Set(first).isDisjoint(with: second) { problems.increment() }
    }
    report.count("rounds", rounds)
    report.count("values received", received.count)
    report.expect("rounds out of order or delivered twice", problems.count, 0)
    return report
  }

  /// An iterator handed to several tasks: what the scenario exercises.
  final class SharedIterator<Iterator>: @unchecked Sendable {
    let iterator: Iterator
    init(_ iterator: Iterator) { self.iterator = iterator }
  }
}

/// A ``RecordingSubscriber`` that may cancel itself from inside the delivery of one value.
final class SelfCancellingSubscriber<Failure: Error>: Subscriber, @unchecked Sendable {
  typealias Input = (source: Int, index: Int)

  private let recording: RecordingSubscriber<Failure>
  private let cancelsAt: Int?

  init(
    sequences: SequenceChecker, demand: Subscribers.Demand = .unlimited, cancelsAt: Int?,
    onDeinit: @escaping @Sendable () -> Void
  ) {
    recording = RecordingSubscriber(
      sequences: sequences, demand: demand, allowingGaps: true, onDeinit: onDeinit)
    self.cancelsAt = cancelsAt
  }

  var subscription: (any Subscription)? { recording.subscription }
  var completions: Int { recording.completions }
  var lateValues: Int { recording.lateValues }

  func receive(subscription: any Subscription) { recording.receive(subscription: subscription) }

  func receive(_ input: Input) -> Subscribers.Demand {
    let demand = recording.receive(input)
    if input.index == cancelsAt { recording.cancel() }
    return demand
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    recording.receive(completion: completion)
  }

  func cancel() { recording.cancel() }
}
