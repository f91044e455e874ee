import Foundation
import KVOLiteBridge
import KVOLiteTestSupport
import Synchronization

/// Subjects under concurrent sends, completions, subscriptions and cancellations.
enum SubjectScenarios {
  static var all: [StressScenario] { [sendRacingCompletion, sendRacingSubscribe, currentValue] }

  /// Each round, one thread sends values while another completes the subject, to a subscriber
  /// that keeps its subscription: no value may arrive after the completion, the completion
  /// arrives once, and the subscriber is released with the subject.
  static let sendRacingCompletion = StressScenario(
    name: "subjects: send racing send(completion:)"
  ) { iterations in
    var report = StressReport()
    let rounds = max(1, iterations / 100)
    let late = Counter()
    let badCompletions = Counter()
    let released = Counter()
    let steps = RoundBarrier(count: 2)
    let slot = Locked<PassthroughSubject<(source: Int, index: Int), Never>?>(nil)
    race(workers: 2) { worker in
      for _ in 0..<rounds {
        if worker == 0 {
          let subject = PassthroughSubject<(source: Int, index: Int), Never>()
          let subscriber = RecordingSubscriber<Never>(
            sequences: SequenceChecker(sources: 1), allowingGaps: true,
            onDeinit: { released.increment() })
          subject.subscribe(subscriber)
          slot.withLock { $0 = subject }
          steps.arriveAndWait()
          for index in 0..<100 { subject.send((0, index)) }
          steps.arriveAndWait()
          if subscriber.completions != 1 { badCompletions.increment() }
          late.add(subscriber.lateValues)
          slot.withLock { $0 = nil }
        } else {
          steps.arriveAndWait()
          let subject = slot.withLock { $0 }
          for _ in 0..<Int.random(in: 0..<50) { sched_yield() }
          subject?.send(completion: .finished)
          steps.arriveAndWait()
        }
      }
    }
    report.count("rounds", rounds)
    report.expect("values after the completion", late.count, 0)
    report.expect("rounds without exactly one completion", badCompletions.count, 0)
    report.expect("subscribers released", released.count, rounds)
    return report
  }

  /// Two threads send numbered values while two subscribe, receive a while and cancel: each
  /// subscriber gets each sender's values in order, once; cancelled subscribers are released.
  static let sendRacingSubscribe = StressScenario(
    name: "subjects: send racing subscribe and cancel"
  ) { iterations in
    var report = StressReport()
    let subject = PassthroughSubject<(source: Int, index: Int), Never>()
    let released = Counter()
    let made = Counter()
    let problems = Locked<[String]>([])
    let received = Counter()
    let stop = Atomic<Bool>(false)
    race(workers: 4) { worker in
      if worker < 2 {
        for index in 0..<iterations { subject.send((worker, index)) }
        stop.store(true, ordering: .releasing)
        return
      }
      while !stop.load(ordering: .acquiring) {
        let sequences = SequenceChecker(sources: 2)
        let subscriber = RecordingSubscriber<Never>(
          sequences: sequences, allowingGaps: true, onDeinit: { released.increment() })
        made.increment()
        subject.subscribe(subscriber)
        for _ in 0..<Int.random(in: 0..<200) { sched_yield() }
        subscriber.cancel()
        let (total, found) = sequences.summary
        received.add(total)
        if !found.isEmpty { problems.withLock { $0 += found } }
      }
    }
    report.count("subscribers", made.count)
    report.count("values received", received.count)
    report.failures += problems.withLock { Array($0.prefix(5)) }
    report.expect("subscribers released", released.count, made.count)
    return report
  }

  /// A current-value subject sent to by two threads while two read `value` and subscribe: every
  /// value read is well-formed, and a standing subscriber sees each sender's values in order.
  static let currentValue = StressScenario(name: "subjects: CurrentValueSubject send and read") {
    iterations in
    var report = StressReport()
    let subject = CurrentValueSubject<String, Never>("")
    let malformed = Counter()
    let sequences = SequenceChecker(sources: 2)
    let cancellable = subject.sink { value in
      guard !value.isEmpty else { return }
      guard let stamp = Stamp.parse(value) else { return malformed.increment() }
      sequences.record(source: stamp.writer, index: stamp.index)
    }
    race(workers: 4) { worker in
      for index in 0..<iterations {
        if worker < 2 {
          subject.send(Stamp.string(writer: worker, index: index))
        } else if index % 64 == 0 {
          _ = subject.sink { value in
            if !value.isEmpty, Stamp.parse(value) == nil { malformed.increment() }
          }
        } else {
          let value = subject.value
          if !value.isEmpty, Stamp.parse(value) == nil { malformed.increment() }
        }
      }
    }
    cancellable.cancel()
    report.expect("malformed values", malformed.count, 0)
    report.merge("standing subscriber", sequences)
    report.check("standing subscriber got every value", sequences.summary.total == 2 * iterations)
    return report
  }
}
