import Dispatch
import Foundation
import KVOLiteCombine
import KVOLiteCombineFoundation
import KVOLiteTestSupport
import Testing

/// Every operator that hops schedulers, on a concurrent `DispatchQueue` (`global()`) and an
/// `OperationQueue` running several operations at once: 10,000 subscriptions each, made at
/// once, and every one sees its values in order, before its completion. Nothing sleeps: each
/// test waits for the events it expects on a semaphore, and a wait past its deadline fails.
@Suite("Time: in order on a concurrent scheduler")
struct ConcurrentSchedulerOrderTests {
  static let runs = 10_000

  /// A concurrent operation queue.
  static let operations: OperationQueue = {
    let queue = OperationQueue()
    queue.maxConcurrentOperationCount = 4
    return queue
  }()

  /// The operators whose events are each scheduled, with what each run must see: `[1, 2, 3]`
  /// (or their intervals), then `.finished`.
  static let scheduling: [String] = [
    "receive(on:) a global queue", "receive(on:) an operation queue",
    "delay on a global queue", "delay on an operation queue", "timeout on a global queue",
    "measureInterval on a global queue", "throttle on a global queue",
  ]

  static func attach(_ name: String, to recorder: EventRecorder<Int, Never>) {
    let global = DispatchQueue.global()
    let values = [1, 2, 3].publisher
    switch name {
    case "receive(on:) a global queue": values.receive(on: global).subscribe(recorder)
    case "receive(on:) an operation queue": values.receive(on: operations).subscribe(recorder)
    case "delay on a global queue":
      values.delay(for: .milliseconds(1), scheduler: global).subscribe(recorder)
    case "delay on an operation queue":
      values.delay(for: .milliseconds(1), scheduler: operations).subscribe(recorder)
    case "timeout on a global queue":
      values.timeout(.seconds(60), scheduler: global).subscribe(recorder)
    case "measureInterval on a global queue":
      values.measureInterval(using: global).scan(0) { count, _ in count + 1 }.subscribe(recorder)
    default:
      // One value, sent once downstream has asked (throttle asks upstream for everything
      // before it hands downstream its subscription, and drops what comes without demand): it
      // waits for its emission, and the completion goes out after it.
      let subject = PassthroughSubject<Int, Never>()
      subject.throttle(for: .seconds(60), scheduler: global, latest: true).subscribe(recorder)
      subject.send(1)
      subject.send(completion: .finished)
    }
  }

  @Test("each value before the completion, in order, every run", arguments: scheduling)
  func scheduledEvents(_ name: String) throws {
    let expected = name.hasPrefix("throttle") ? ["1", "finished"] : ["1", "2", "3", "finished"]
    let recorders = (0..<Self.runs).map { _ in EventRecorder<Int, Never>() }
    for recorder in recorders { Self.attach(name, to: recorder) }
    let waited = EventRecorder.waitForCompletions(of: recorders)
    #expect(waited, "timed out waiting for the events")
    let wrong = recorders.filter { $0.events != expected }
    let wrongRuns = wrong.count
    #expect(
      wrongRuns == 0,
      "\(wrong.count) of \(Self.runs) runs wrong, e.g. \(wrong.first?.events ?? [])")
  }

  @Test(
    "debounce and collect(.byTime): values in order, none after the completion, none lost by collect",
    arguments: ["debounce", "collect(.byTime)", "collect(.byTimeOrCount)"])
  func timedEvents(_ name: String) throws {
    let global = DispatchQueue.global()
    let recorders = (0..<Self.runs).map { _ in EventRecorder<Int, Never>() }
    DispatchQueue.concurrentPerform(iterations: Self.runs) { run in
      let subject = PassthroughSubject<Int, Never>()
      let recorder = recorders[run]
      switch name {
      case "debounce":
        subject.debounce(for: .microseconds(5), scheduler: global).subscribe(recorder)
      case "collect(.byTime)":
        subject.collect(.byTime(global, .microseconds(5))).flatMap(\.publisher)
          .subscribe(recorder)
      default:
        subject.collect(.byTimeOrCount(global, .microseconds(5), 2)).flatMap(\.publisher)
          .subscribe(recorder)
      }
      for value in 1...4 {
        subject.send(value)
        Self.spin(run % 64)
      }
      subject.send(completion: .finished)
    }
    let waited = EventRecorder.waitForCompletions(of: recorders)
    #expect(waited, "timed out waiting for completions")
    let wrong = recorders.filter { recorder in
      let events = recorder.events
      guard events.last == "finished", events.filter({ $0 == "finished" }).count == 1 else {
        return true
      }
      let values = events.dropLast().compactMap { Int($0) }
      // debounce publishes the values that had a quiet moment after them (each timer that
      // fired before the next value), in order; collect publishes them all.
      return name == "debounce"
        ? values != values.sorted() || Set(values).count != values.count
        : values != [1, 2, 3, 4]
    }
    let wrongRuns = wrong.count
    #expect(
      wrongRuns == 0,
      "\(wrong.count) of \(Self.runs) runs wrong, e.g. \(wrong.first?.events ?? [])")
  }

  @Test("subscribe(on:) passes requests and the cancel upstream in the order they were made")
  func subscribeOnRequestsInOrder() {
    let logs = (0..<Self.runs).map { _ in Log<String>() }
    let cancelled = DispatchSemaphore(value: 0)
    for log in logs {
      let upstream = RecordingUpstream(log: log) { cancelled.signal() }
      upstream.subscribe(on: DispatchQueue.global()).subscribe(
        EventRecorder<Int, Never>(onSubscribe: { subscription in
          for demand in 1...8 { subscription.request(.max(demand)) }
          subscription.cancel()
        }))
    }
    let deadline = DispatchTime.now() + .seconds(60)
    let waited = logs.allSatisfy { _ in cancelled.wait(timeout: deadline) == .success }
    #expect(waited, "timed out waiting for the cancels")
    let expected = (1...8).map { "request(max(\($0)))" } + ["cancel"]
    let wrong = logs.filter { $0.all != expected }
    let wrongRuns = wrong.count
    #expect(
      wrongRuns == 0, "\(wrong.count) of \(Self.runs) runs wrong, e.g. \(wrong.first?.all ?? [])")
  }

  /// Busy-waits about `steps` short steps, to spread where the sender and the queue meet.
  @inline(never)
  static func spin(_ steps: Int) {
    var value = 0
    for step in 0..<steps { value = value &* 31 &+ step }
    if value == .min { print(value) }
  }
}
