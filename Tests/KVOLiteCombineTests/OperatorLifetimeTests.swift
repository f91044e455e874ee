import Foundation
import KVOLiteCombine
import KVOLiteCombineFoundation
import KVOLiteTestSupport
import Testing

/// A subscriber that keeps its subscription for its whole life, as many custom subscribers do,
/// and counts its deinit: it is released only if the publisher lets go of it.
private final class KeepingSubscriber<Input, Failure: Error>: Subscriber, @unchecked Sendable {
  private var subscription: (any Subscription)?
  private let released: Counter

  init(released: Counter) { self.released = released }
  deinit { released.increment() }

  func receive(subscription: any Subscription) {
    self.subscription = subscription
    subscription.request(.unlimited)
  }
  func receive(_ input: Input) -> Subscribers.Demand { .none }
  func receive(completion: Subscribers.Completion<Failure>) {}

  /// Cancels, keeping the subscription (so only the publisher can break the cycle).
  func cancel() { subscription?.cancel() }
}

/// Something a closure captures, counting its deinit.
private final class Captured: Sendable {
  let released: Counter
  init(released: Counter) { self.released = released }
  deinit { released.increment() }
}

/// How a subscription ends.
private enum Ending: String, CaseIterable, CustomStringConvertible {
  case cancel, finish, failure
  var description: String { rawValue }
}

/// One operator applied to a subject of `Int`s, for the lifetime tests. Closures the operator
/// takes capture `captured`.
private struct OperatorCase: CustomStringConvertible, Sendable {
  let name: String
  let make:
    @Sendable (PassthroughSubject<Int, TestError>, Captured, VirtualTimeScheduler) -> any Publisher
  var description: String { name }
}

private let operatorCases: [OperatorCase] = [
  .init(name: "map") { s, c, _ in
    s.map {
      _ = c
      return $0
    }
  },
  .init(name: "tryMap") { s, c, _ in
    s.tryMap {
      _ = c
      return $0
    }
  },
  .init(name: "filter") { s, c, _ in
    s.filter {
      _ = c
      return $0 > 0
    }
  },
  .init(name: "tryFilter") { s, c, _ in
    s.tryFilter {
      _ = c
      return $0 > 0
    }
  },
  .init(name: "compactMap") { s, c, _ in
    s.compactMap {
      _ = c
      return $0
    }
  },
  .init(name: "tryCompactMap") { s, c, _ in
    s.tryCompactMap {
      _ = c
      return $0
    }
  },
  .init(name: "removeDuplicates") { s, c, _ in
    s.removeDuplicates {
      _ = c
      return $0 == $1
    }
  },
  .init(name: "tryRemoveDuplicates") { s, c, _ in
    s.tryRemoveDuplicates {
      _ = c
      return $0 == $1
    }
  },
  .init(name: "dropFirst") { s, _, _ in s.dropFirst() },
  .init(name: "drop(while:)") { s, c, _ in
    s.drop {
      _ = c
      return $0 < 0
    }
  },
  .init(name: "tryDrop(while:)") { s, c, _ in
    s.tryDrop {
      _ = c
      return $0 < 0
    }
  },
  .init(name: "drop(untilOutputFrom:)") { s, _, _ in
    s.drop(untilOutputFrom: Just(0).setFailureType(to: TestError.self))
  },
  .init(name: "prefix") { s, _, _ in s.prefix(10) },
  .init(name: "prefix(while:)") { s, c, _ in
    s.prefix {
      _ = c
      return $0 < 10
    }
  },
  .init(name: "tryPrefix(while:)") { s, c, _ in
    s.tryPrefix {
      _ = c
      return $0 < 10
    }
  },
  .init(name: "prefix(untilOutputFrom:)") { s, _, _ in
    s.prefix(untilOutputFrom: PassthroughSubject<Int, TestError>())
  },
  .init(name: "first") { s, _, _ in s.first() },
  .init(name: "first(where:)") { s, c, _ in
    s.first {
      _ = c
      return $0 > 5
    }
  },
  .init(name: "tryFirst(where:)") { s, c, _ in
    s.tryFirst {
      _ = c
      return $0 > 5
    }
  },
  .init(name: "last") { s, _, _ in s.last() },
  .init(name: "last(where:)") { s, c, _ in
    s.last {
      _ = c
      return $0 > 5
    }
  },
  .init(name: "tryLast(where:)") { s, c, _ in
    s.tryLast {
      _ = c
      return $0 > 5
    }
  },
  .init(name: "output(at:)") { s, _, _ in s.output(at: 5) },
  .init(name: "output(in:)") { s, _, _ in s.output(in: 2..<5) },
  .init(name: "scan") { s, c, _ in
    s.scan(0) {
      _ = c
      return $0 + $1
    }
  },
  .init(name: "tryScan") { s, c, _ in
    s.tryScan(0) {
      _ = c
      return $0 + $1
    }
  },
  .init(name: "reduce") { s, c, _ in
    s.reduce(0) {
      _ = c
      return $0 + $1
    }
  },
  .init(name: "tryReduce") { s, c, _ in
    s.tryReduce(0) {
      _ = c
      return $0 + $1
    }
  },
  .init(name: "collect") { s, _, _ in s.collect() },
  .init(name: "collect(count)") { s, _, _ in s.collect(3) },
  .init(name: "collect(by time)") { s, _, t in s.collect(.byTime(t, .seconds(1))) },
  .init(name: "count") { s, _, _ in s.count() },
  .init(name: "min") { s, _, _ in s.min() },
  .init(name: "max(by:)") { s, c, _ in
    s.max {
      _ = c
      return $0 < $1
    }
  },
  .init(name: "contains") { s, _, _ in s.contains(99) },
  .init(name: "contains(where:)") { s, c, _ in
    s.contains {
      _ = c
      return $0 > 99
    }
  },
  .init(name: "allSatisfy") { s, c, _ in
    s.allSatisfy {
      _ = c
      return $0 < 99
    }
  },
  .init(name: "ignoreOutput") { s, _, _ in s.ignoreOutput() },
  .init(name: "replaceNil") { s, _, _ in s.map { Optional($0) }.replaceNil(with: 0) },
  .init(name: "replaceEmpty") { s, _, _ in s.replaceEmpty(with: 0) },
  .init(name: "replaceError") { s, _, _ in s.replaceError(with: 0) },
  .init(name: "mapError") { s, c, _ in
    s.mapError {
      _ = c
      return $0
    }
  },
  .init(name: "setFailureType") { s, _, _ in
    s.replaceError(with: 0).setFailureType(to: TestError.self)
  },
  .init(name: "catch") { s, c, _ in
    s.catch { _ in
      _ = c
      return Just(0)
    }
  },
  .init(name: "tryCatch") { s, c, _ in
    s.tryCatch { _ in
      _ = c
      return Just(0)
    }
  },
  .init(name: "retry") { s, _, _ in s.retry(1) },
  .init(name: "assertNoFailure") { s, _, _ in s.replaceError(with: 0).assertNoFailure() },
  .init(name: "flatMap") { s, c, _ in
    s.flatMap {
      _ = c
      return Just($0).setFailureType(to: TestError.self)
    }
  },
  .init(name: "switchToLatest") { s, _, _ in
    s.map { Just($0).setFailureType(to: TestError.self) }.switchToLatest()
  },
  // The operators of several upstreams end when both do: both are the subject.
  .init(name: "combineLatest") { s, _, _ in s.combineLatest(s) },
  .init(name: "zip") { s, _, _ in s.zip(s) },
  .init(name: "merge") { s, _, _ in s.merge(with: s) },
  .init(name: "append") { s, _, _ in s.append(1, 2) },
  .init(name: "prepend") { s, _, _ in s.prepend(1, 2) },
  .init(name: "share") { s, _, _ in s.share() },
  .init(name: "multicast + autoconnect") { s, _, _ in
    s.multicast(subject: PassthroughSubject()).autoconnect()
  },
  .init(name: "makeConnectable + autoconnect") { s, _, _ in
    s.replaceError(with: 0).makeConnectable().autoconnect()
  },
  .init(name: "handleEvents") { s, c, _ in s.handleEvents(receiveOutput: { _ in _ = c }) },
  .init(name: "print") { s, _, _ in s.print("", to: NullStream()) },
  .init(name: "breakpoint") { s, c, _ in
    s.breakpoint(receiveOutput: { _ in
      _ = c
      return false
    })
  },
  .init(name: "buffer") { s, _, _ in s.buffer(size: 4, prefetch: .byRequest, whenFull: .dropNewest)
  },
  .init(name: "receive(on:)") { s, _, t in s.receive(on: t) },
  .init(name: "subscribe(on:)") { s, _, t in s.subscribe(on: t) },
  .init(name: "delay") { s, _, t in s.delay(for: .seconds(1), scheduler: t) },
  .init(name: "debounce") { s, _, t in s.debounce(for: .seconds(1), scheduler: t) },
  .init(name: "throttle") { s, _, t in s.throttle(for: .seconds(1), scheduler: t, latest: true) },
  .init(name: "timeout") { s, _, t in s.timeout(.seconds(1), scheduler: t) },
  .init(name: "measureInterval") { s, _, t in s.measureInterval(using: t) },
  .init(name: "encode") { s, _, _ in s.encode(encoder: JSONEncoder()) },
  .init(name: "decode") { s, _, _ in
    s.map { Data("\($0)".utf8) }.decode(type: Int.self, decoder: JSONDecoder())
  },
]

/// A text stream that drops everything.
private struct NullStream: TextOutputStream {
  mutating func write(_ string: String) {}
}

@Suite("Operators let go of their subscriber and closures when they end")
struct OperatorLifetimeTests {
  @Test(
    "a subscriber that keeps its subscription is released after cancel, finish or failure",
    arguments: operatorCases, Ending.allCases)
  fileprivate func releasesSubscriber(_ operation: OperatorCase, _ ending: Ending) {
    let subscriberReleased = Counter()
    let capturedReleased = Counter()
    do {
      let scheduler = VirtualTimeScheduler()
      let subject = PassthroughSubject<Int, TestError>()
      var subscriber: (() -> Void)?
      do {
        let publisher = operation.make(
          subject, Captured(released: capturedReleased), scheduler)
        subscriber = attach(publisher, released: subscriberReleased)
      }
      scheduler.advance(by: .seconds(1))
      subject.send(1)
      scheduler.advance(by: .seconds(1))
      switch ending {
      case .cancel: subscriber?()
      case .finish: subject.send(completion: .finished)
      case .failure: subject.send(completion: .failure(TestError()))
      }
      scheduler.advance(by: .seconds(10))
      subscriber = nil
    }
    #expect(subscriberReleased.count == 1, "the subscriber was kept")
    #expect(capturedReleased.count == 1, "what the operator's closure captured was kept")
  }

  /// Subscribes a keeping subscriber to `publisher`; returns what cancels it.
  private func attach<P: Publisher>(_ publisher: P, released: Counter) -> () -> Void {
    let subscriber = KeepingSubscriber<P.Output, P.Failure>(released: released)
    publisher.subscribe(subscriber)
    return { [weak subscriber] in subscriber?.cancel() }
  }
}
