import Foundation
import KVOLiteCombine
import KVOLiteTestSupport
import Synchronization
import Testing

/// The subjects and `ObservableObjectPublisher` as Combine's.
@Suite("Combine compatibility: subjects")
struct SubjectContractTests {
  @Test("a passthrough subject asks its upstreams for values only once a subscriber has asked")
  func passthroughUpstream() {
    let history = Log<Event<Int>>()
    let subject = PassthroughSubject<Int, TestError>()
    subject.send(subscription: CustomSubscription(history: history))
    #expect(history.all == [])
    let first = TrackingSubscriber<Int, TestError>(onSubscribe: { _ in })
    subject.subscribe(first)
    #expect(history.all == [])
    first.subscription?.request(.max(1))
    let second = TrackingSubscriber<Int, TestError>(onSubscribe: { $0.request(.max(1)) })
    subject.subscribe(second)
    subject.send(subscription: CustomSubscription(history: history))
    #expect(history.all == [.requested(.unlimited), .requested(.unlimited)])
    #expect(first.subscriptionDescription == "PassthroughSubject")
  }

  @Test("a current-value subject asks its upstreams at once; a released subject cancels them")
  func currentValueUpstream() {
    let history = Log<Event<Int>>()
    do {
      let subject = CurrentValueSubject<Int, TestError>(0)
      subject.send(subscription: CustomSubscription(history: history))
      #expect(history.all == [.requested(.unlimited)])
    }
    #expect(history.all == [.requested(.unlimited), .cancelled])
    do {
      let subject = PassthroughSubject<Int, TestError>()
      subject.send(subscription: CustomSubscription(history: history))
    }
    #expect(history.all == [.requested(.unlimited), .cancelled, .cancelled])
  }

  @Test("a subscription keeps its subject alive until it finishes or is cancelled")
  func subscriptionKeepsSubject() {
    weak var weakSubject: PassthroughSubject<Int, Never>?
    let subscriber = TrackingSubscriber<Int, Never>()
    do {
      let subject = PassthroughSubject<Int, Never>()
      weakSubject = subject
      subject.subscribe(subscriber)
    }
    #expect(weakSubject != nil)
    let mirror = Mirror(reflecting: subscriber.subscription!).children.compactMap(\.label)
    #expect(mirror == ["parent", "downstream", "demand", "subject"])
    subscriber.subscription?.cancel()
    #expect(weakSubject == nil)
  }

  @Test(
    "an ended subscription's mirror: no parent, subscriber or subject, and the demand it had left",
    arguments: [true, false])
  func mirrorAfterTheEnd(_ completing: Bool) throws {
    let subject = PassthroughSubject<Int, TestError>()
    let subscriber = TrackingSubscriber<Int, TestError>(onSubscribe: { $0.request(.max(12)) })
    subject.subscribe(subscriber)
    subject.send(1)
    let subscription = try #require(subscriber.subscription)
    if completing { subject.send(completion: .finished) } else { subscription.cancel() }
    subscription.request(.max(3))
    let children = Mirror(reflecting: subscription).children.map {
      "\($0.label ?? ""): \($0.value)"
    }
    #expect(children == ["parent: nil", "downstream: nil", "demand: max(11)", "subject: nil"])
  }

  /// How a subscription ends in ``releasesEverythingAtTheEnd(_:)``.
  enum Ending: CaseIterable, Sendable { case cancelled, finished, failed }

  @Test(
    "a cancelled, finished or failed subscription is released at once, with its subscriber, while the subject lives on",
    arguments: Ending.allCases)
  func releasesEverythingAtTheEnd(_ ending: Ending) {
    /// Ends a subscription to `subject` and reports whether the subscriber and the
    /// subscription are still alive, then whether the subject is once released.
    func check<S: Subject>(_ make: () -> S) -> [Bool]
    where S.Output == Int, S.Failure == TestError {
      weak var weakSubject: S?
      weak var weakSubscriber: TrackingSubscriber<Int, TestError>?
      weak var weakSubscription: AnyObject?
      var alive: [Bool] = []
      do {
        let subject = make()
        weakSubject = subject
        do {
          let subscriber = TrackingSubscriber<Int, TestError>(onSubscribe: { _ in })
          weakSubscriber = subscriber
          subject.subscribe(subscriber)
          weakSubscription = subscriber.subscription.map { $0 as AnyObject }
        }
        switch ending {
        case .cancelled: (weakSubscription as? any Subscription)?.cancel()
        case .finished: subject.send(completion: .finished)
        case .failed: subject.send(completion: .failure(TestError()))
        }
        alive = [weakSubscriber != nil, weakSubscription != nil]
      }
      return alive + [weakSubject != nil]
    }
    #expect(check { PassthroughSubject<Int, TestError>() } == [false, false, false])
    #expect(check { CurrentValueSubject<Int, TestError>(1) } == [false, false, false])
  }

  @Test(
    "setting a current value after completion stores it (send does not); subscribers get the completion"
  )
  func currentValueAfterCompletion() {
    let subject = CurrentValueSubject<Int, TestError>(1)
    subject.send(completion: .finished)
    subject.value = 2
    #expect(subject.value == 2)
    subject.send(3)
    #expect(subject.value == 2)
    let subscriber = TrackingSubscriber<Int, TestError>()
    subject.subscribe(subscriber)
    #expect(subscriber.events == [.subscription, .finished])
    #expect(subscriber.subscriptionDescription == "Empty")
  }

  @Test(
    "a current-value subscriber gets the value on its first request, then the latest after waiting")
  func currentValueDemand() {
    let subject = CurrentValueSubject<Int, TestError>(1)
    let subscriber = TrackingSubscriber<Int, TestError>(onSubscribe: { _ in })
    subject.subscribe(subscriber)
    subject.send(2)
    subscriber.subscription?.request(.max(1))
    subject.send(3)
    subject.send(4)
    subscriber.subscription?.request(.max(2))
    subject.send(5)
    #expect(subscriber.events == [.subscription, .value(2), .value(4), .value(5)])
    #expect(subscriber.subscriptionDescription == "CurrentValueSubject")
  }

  @Test("ObservableObjectPublisher ignores demand and delivers every send")
  func objectWillChangeIgnoresDemand() {
    let publisher = ObservableObjectPublisher()
    let subscriber = TrackingSubscriber<Int, Never>(onSubscribe: { _ in })
    publisher.map { 7 }.subscribe(subscriber)
    publisher.send()
    publisher.send()
    #expect(subscriber.events == [.subscription, .value(7), .value(7)])
    #expect(subscriber.subscriptionDescription == "ObservableObjectPublisher")
  }

  @Test("concurrent sends reach each subscriber one at a time, every value once")
  func concurrentSends() {
    let subject = PassthroughSubject<Int, Never>()
    let inside = Atomic<Int>(0)
    let overlaps = Counter()
    let received = Counter()
    let cancellable = subject.removeDuplicates().sink { _ in
      if inside.add(1, ordering: .acquiringAndReleasing).newValue > 1 { overlaps.increment() }
      received.increment()
      inside.subtract(1, ordering: .acquiringAndReleasing)
    }
    race(workers: 4) { worker in
      for round in 0..<2_000 { subject.send(worker * 10_000 + round) }
    }
    #expect(overlaps.count == 0)
    #expect(received.count == 8_000)
    _ = cancellable
  }

  @Test("sends and requests with none trap")
  func traps() async {
    await #expect(processExitsWith: .failure) {
      let subscriber = TrackingSubscriber<Int, Never>(onSubscribe: { $0.request(.none) })
      PassthroughSubject<Int, Never>().subscribe(subscriber)
    }
    await #expect(processExitsWith: .failure) {
      let subscriber = TrackingSubscriber<Int, Never>(onSubscribe: { $0.request(.none) })
      CurrentValueSubject<Int, Never>(0).subscribe(subscriber)
    }
  }
}
