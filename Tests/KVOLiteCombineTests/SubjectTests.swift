import Foundation
import KVOLiteCombine
import KVOLiteTestSupport
import Testing

@Suite("Subjects, Just, Empty, AnyPublisher")
struct SubjectTests {
  @Test("a passthrough subject delivers within each subscriber's demand and drops the rest")
  func passthroughDemand() {
    let subject = PassthroughSubject<Int, TestError>()
    let limited = TrackingSubscriber<Int, TestError>(onSubscribe: { $0.request(.max(2)) })
    let unlimited = TrackingSubscriber<Int, TestError>()
    subject.subscribe(limited)
    subject.subscribe(unlimited)
    for value in 1...3 { subject.send(value) }
    limited.subscription?.request(.max(1))
    subject.send(4)
    subject.send(completion: .finished)
    subject.send(5)
    #expect(limited.events == [.subscription, .value(1), .value(2), .value(4), .finished])
    #expect(
      unlimited.events == [.subscription, .value(1), .value(2), .value(3), .value(4), .finished])
  }

  @Test("a subscriber after completion gets the completion at once")
  func lateSubscriber() {
    let subject = PassthroughSubject<Int, TestError>()
    subject.send(completion: .failure(TestError()))
    let late = TrackingSubscriber<Int, TestError>()
    subject.subscribe(late)
    #expect(late.events == [.subscription, .failed(TestError())])
  }

  @Test("a send racing send(completion:) never reaches a subscriber after its completion")
  func noValueAfterCompletion() {
    let rounds = 300
    let late = Counter()
    let completions = Counter()
    for _ in 0..<rounds {
      let subject = PassthroughSubject<Int, TestError>()
      let history = Log<Event<Int>>()
      subject.subscribe(TrackingSubscriber<Int, TestError>(history: history))
      // More senders than cores, so that a sender is often preempted between deciding to
      // deliver and delivering, while the completion goes out.
      race(workers: 5) { worker in
        if worker < 4 {
          for value in 0..<200 { subject.send(value) }
        } else {
          for _ in 0..<50 { sched_yield() }
          subject.send(completion: .finished)
        }
      }
      let events = history.all
      guard let end = events.firstIndex(of: .finished) else { continue }
      completions.increment()
      if events[end...].dropFirst().contains(where: { if case .value = $0 { true } else { false } })
      {
        late.increment()
      }
    }
    #expect(completions.count == rounds)
    #expect(late.count == 0)
  }

  @Test("a current-value subject sends its value on the first request, and the latest after a wait")
  func currentValue() {
    let subject = CurrentValueSubject<Int, Never>(1)
    let subscriber = TrackingSubscriber<Int, Never>(onSubscribe: { _ in })
    subject.subscribe(subscriber)
    #expect(subscriber.events == [.subscription])
    subscriber.subscription?.request(.max(1))
    subject.send(2)
    subject.value = 3
    subscriber.subscription?.request(.max(2))
    subject.send(4)
    subject.send(5)
    #expect(subject.value == 5)
    #expect(subscriber.events == [.subscription, .value(1), .value(3), .value(4)])
  }

  @Test("a value sent from inside a subscriber's callback is delivered at once, depth-first")
  func reentrantSend() {
    let subject = PassthroughSubject<Int, Never>()
    let log = Log<String>()
    let first = subject.sink { value in
      log.append("first \(value)")
      if value == 1 { subject.send(2) }
    }
    let second = subject.sink { log.append("second \($0)") }
    subject.send(1)
    #expect(log.all == ["first 1", "first 2", "second 2", "second 1"])
    _ = (first, second)
  }

  @Test("a sink that cancels itself inside its callback receives nothing more")
  func cancelInsideCallback() {
    let subject = PassthroughSubject<Int, Never>()
    let log = Log<Int>()
    var cancellable: AnyCancellable?
    cancellable = subject.sink { value in
      log.append(value)
      cancellable?.cancel()
    }
    subject.send(1)
    subject.send(2)
    #expect(log.all == [1])
  }

  @Test("a released AnyCancellable cancels, and store(in:) keeps it alive")
  func anyCancellableLifetime() {
    let subject = PassthroughSubject<Int, Never>()
    let log = Log<Int>()
    var bag = Set<AnyCancellable>()
    var list: [AnyCancellable] = []
    subject.sink { log.append($0) }.store(in: &bag)
    subject.sink { log.append($0 * 10) }.store(in: &list)
    _ = subject.sink { log.append($0 * 100) }
    subject.send(1)
    bag.removeAll()
    list.removeAll()
    subject.send(2)
    #expect(log.all == [1, 10])
  }

  @Test("Just sends its value and finishes on the first request; Empty just finishes")
  func justAndEmpty() {
    let just = TrackingSubscriber<Int, Never>(onSubscribe: { _ in })
    Just(7).subscribe(just)
    #expect(just.events == [.subscription])
    just.subscription?.request(.max(1))
    just.subscription?.request(.max(1))
    #expect(just.events == [.subscription, .value(7), .finished])
    let empty = TrackingSubscriber<Int, TestError>()
    Empty<Int, TestError>().subscribe(empty)
    #expect(empty.events == [.subscription, .finished])
    let never = TrackingSubscriber<Int, TestError>()
    Empty<Int, TestError>(completeImmediately: false).subscribe(never)
    #expect(never.events == [.subscription])
  }

  @Test("eraseToAnyPublisher hides the chain and behaves the same")
  func anyPublisher() {
    let subject = PassthroughSubject<Int, Never>()
    let erased: AnyPublisher<String, Never> = subject.map { "\($0)" }.eraseToAnyPublisher()
    let twice = AnyPublisher(erased)
    let subscriber = TrackingSubscriber<String, Never>()
    twice.subscribe(subscriber)
    subject.send(1)
    #expect(subscriber.events == [.subscription, .value("1")])
  }

  @Test("assign(to:on:) writes every value and releases the object when cancelled")
  func assign() {
    final class Target { var value = 0 }
    let subject = PassthroughSubject<Int, Never>()
    var target: Target? = Target()
    weak let weakTarget = target
    let cancellable = subject.assign(to: \.value, on: target!)
    subject.send(3)
    #expect(target?.value == 3)
    target = nil
    #expect(weakTarget != nil)
    cancellable.cancel()
    #expect(weakTarget == nil)
  }
}
