import Dispatch
import Foundation
import KVOLiteBridge
import KVOLiteTestSupport

/// Operators with several upstreams or an inner queue, fed from several threads at once.
enum OperatorScenarios {
  typealias Numbered = (source: Int, index: Int)

  static var all: [StressScenario] {
    [share, merge, zip, combineLatest, receiveOn, buffer]
  }

  /// Two threads send into a shared subject with two subscribers: each gets every value once,
  /// in each sender's order.
  static let share = StressScenario(name: "operators: share") { iterations in
    var report = StressReport()
    let subject = PassthroughSubject<Numbered, Never>()
    let shared = subject.share()
    let first = RecordingSubscriber<Never>(
      sequences: SequenceChecker(sources: 2, expectedPerSource: iterations))
    let second = RecordingSubscriber<Never>(
      sequences: SequenceChecker(sources: 2, expectedPerSource: iterations))
    shared.subscribe(first)
    shared.subscribe(second)
    race(workers: 2) { worker in
      for index in 0..<iterations { subject.send((worker, index)) }
    }
    subject.send(completion: .finished)
    report.merge("first subscriber", first.sequences)
    report.merge("second subscriber", second.sequences)
    report.expect("completions", first.completions + second.completions, 2)
    return report
  }

  /// Two subjects, each sent to by its own thread, merged: every value once, in each
  /// upstream's order; one completion, after both finished; nothing after it.
  static let merge = StressScenario(name: "operators: merge") { iterations in
    var report = StressReport()
    let a = PassthroughSubject<Numbered, Never>()
    let b = PassthroughSubject<Numbered, Never>()
    let subscriber = RecordingSubscriber<Never>(
      sequences: SequenceChecker(sources: 2, expectedPerSource: iterations))
    a.merge(with: b).subscribe(subscriber)
    race(workers: 2) { worker in
      let subject = worker == 0 ? a : b
      for index in 0..<iterations { subject.send((worker, index)) }
      subject.send(completion: .finished)
    }
    report.merge("merged values", subscriber.sequences)
    report.expect("completions", subscriber.completions, 1)
    report.expect("values after the completion", subscriber.lateValues, 0)
    return report
  }

  /// Two subjects sent to from two threads, zipped: the pairs are `(i, i)` for every `i`, in
  /// order.
  static let zip = StressScenario(name: "operators: zip") { iterations in
    var report = StressReport()
    let a = PassthroughSubject<Int, Never>()
    let b = PassthroughSubject<Int, Never>()
    let pairs = SequenceChecker(sources: 1, expectedPerSource: iterations)
    let mismatched = Counter()
    let completions = Counter()
    let cancellable = a.zip(b).sink(receiveCompletion: { _ in completions.increment() }) {
      left, right in
      if left != right { mismatched.increment() }
      pairs.record(source: 0, index: left)
    }
    race(workers: 2) { worker in
      let subject = worker == 0 ? a : b
      for index in 0..<iterations { subject.send(index) }
      subject.send(completion: .finished)
    }
    report.merge("pairs", pairs)
    report.expect("pairs of unequal values", mismatched.count, 0)
    report.expect("completions", completions.count, 1)
    cancellable.cancel()
    return report
  }

  /// Two subjects sent to from two threads, combined: each side's values appear in the pairs in
  /// the order they were sent, and the last pair holds both last values.
  static let combineLatest = StressScenario(name: "operators: combineLatest") { iterations in
    var report = StressReport()
    let a = PassthroughSubject<Int, Never>()
    let b = PassthroughSubject<Int, Never>()
    let state = Locked<(last: (Int, Int)?, backwards: Int, count: Int)>((nil, 0, 0))
    let cancellable = a.combineLatest(b).sink { pair in
      state.withLock { state in
        if let last = state.last, pair.0 < last.0 || pair.1 < last.1 { state.backwards += 1 }
        state.last = pair
        state.count += 1
      }
    }
    race(workers: 2) { worker in
      let subject = worker == 0 ? a : b
      for index in 0..<iterations { subject.send(index) }
    }
    let (last, backwards, count) = state.withLock { $0 }
    report.count("pairs", count)
    report.expect("pairs older than the one before", backwards, 0)
    report.check(
      "the last pair is (\(iterations - 1), \(iterations - 1)), not \(String(describing: last))",
      last.map { $0 == (iterations - 1, iterations - 1) } ?? false)
    cancellable.cancel()
    return report
  }

  /// Two threads send into a subject delivered on a serial queue: every value once, in each
  /// sender's order, then the completion, after the last value.
  static let receiveOn = StressScenario(name: "operators: receive(on:)") { iterations in
    var report = StressReport()
    let subject = PassthroughSubject<Numbered, Never>()
    let queue = DispatchQueue(label: "kvolite-stress.receive-on")
    let onQueue = DispatchSpecificKey<Bool>()
    queue.setSpecific(key: onQueue, value: true)
    let finished = DispatchSemaphore(value: 0)
    let sequences = SequenceChecker(sources: 2, expectedPerSource: iterations)
    let offQueue = Counter()
    let cancellable = subject.receive(on: queue).sink(
      receiveCompletion: { _ in
        sequences.close()
        finished.signal()
      },
      receiveValue: { value in
        if DispatchQueue.getSpecific(key: onQueue) != true { offQueue.increment() }
        sequences.record(source: value.source, index: value.index)
      })
    race(workers: 2) { worker in
      for index in 0..<iterations { subject.send((worker, index)) }
    }
    subject.send(completion: .finished)
    finished.wait()
    report.merge("values", sequences)
    report.expect("values delivered off the queue", offQueue.count, 0)
    cancellable.cancel()
    return report
  }

  /// One thread sends into a buffer while another requests one value at a time: every value
  /// arrives once, in order, within the demand.
  static let buffer = StressScenario(name: "operators: buffer") { iterations in
    var report = StressReport()
    let subject = PassthroughSubject<Numbered, Never>()
    let subscriber = RecordingSubscriber<Never>(
      sequences: SequenceChecker(sources: 1, expectedPerSource: iterations), demand: .none)
    subject.buffer(size: iterations, prefetch: .byRequest, whenFull: .dropNewest)
      .subscribe(subscriber)
    race(workers: 2) { worker in
      if worker == 0 {
        for index in 0..<iterations { subject.send((0, index)) }
      } else {
        for _ in 0..<iterations { subscriber.subscription?.request(.max(1)) }
      }
    }
    subscriber.subscription?.request(.unlimited)
    subject.send(completion: .finished)
    report.merge("values", subscriber.sequences)
    report.expect("completions", subscriber.completions, 1)
    return report
  }
}
