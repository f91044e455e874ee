import Dispatch
import KVOLiteCombine
import KVOLiteCombineFoundation
import KVOLiteTestSupport
import Testing

@Suite("combineLatest, merge, handleEvents, receive(on:)")
struct CombiningTests {
  @Test("combineLatest sends the latest pair once both have published, and finishes when both do")
  func combineLatest() {
    let a = PassthroughSubject<Int, TestError>()
    let b = PassthroughSubject<String, TestError>()
    let log = Log<String>()
    let cancellable = a.combineLatest(b).sink(
      receiveCompletion: { log.append("\($0)") }, receiveValue: { log.append("\($0.0)\($0.1)") })
    a.send(1)
    a.send(2)
    b.send("x")
    a.send(3)
    b.send("y")
    a.send(completion: .finished)
    b.send("z")
    b.send(completion: .finished)
    #expect(log.all == ["2x", "3x", "3y", "3z", "finished"])
    _ = cancellable
  }

  @Test(
    "combineLatest fed from two threads delivers pairs in the order it made them, ending on both last values"
  )
  func combineLatestFromTwoThreads() {
    let a = PassthroughSubject<Int, Never>()
    let b = PassthroughSubject<Int, Never>()
    let rounds = 20_000
    let state = Locked<(last: (Int, Int)?, backwards: Int)>((nil, 0))
    let cancellable = a.combineLatest(b).sink { pair in
      state.withLock { state in
        if let last = state.last, pair.0 < last.0 || pair.1 < last.1 { state.backwards += 1 }
        state.last = pair
      }
    }
    race(workers: 2) { worker in
      let subject = worker == 0 ? a : b
      for value in 0..<rounds { subject.send(value) }
    }
    let (last, backwards) = state.withLock { $0 }
    #expect(backwards == 0)
    #expect(last.map { $0 == (rounds - 1, rounds - 1) } == true)
    _ = cancellable
  }

  @Test("combineLatest passes each request to both upstreams and sends only what was asked for")
  func combineLatestDemand() {
    let history = Log<Event<Int>>()
    let a = CustomPublisher<Int, Never>(history: history)
    let b = CurrentValueSubject<Int, Never>(1)
    let subscriber = TrackingSubscriber<Int, Never>(onSubscribe: { $0.request(.max(1)) })
    a.combineLatest(b) { $0 * 10 + $1 }.subscribe(subscriber)
    a.send(1)
    a.send(2)  // No demand: only the latest value is kept.
    subscriber.subscription?.request(.max(1))
    #expect(history.all == [.requested(.max(1)), .requested(.max(1))])
    #expect(subscriber.events == [.subscription, .value(11), .value(21)])
  }

  @Test("combineLatest fails, and cancels the other side, when one side fails")
  func combineLatestFailure() {
    let history = Log<Event<Int>>()
    let a = CustomPublisher<Int, TestError>(history: history)
    let b = PassthroughSubject<Int, TestError>()
    let subscriber = TrackingSubscriber<Int, TestError>()
    a.combineLatest(b) { $0 + $1 }.subscribe(subscriber)
    b.send(completion: .failure(TestError()))
    a.send(1)
    #expect(subscriber.events == [.subscription, .failed(TestError())])
    #expect(history.all == [.requested(.unlimited), .cancelled])
  }

  @Test("merge interleaves values and finishes when every upstream has finished")
  func merge() {
    let a = PassthroughSubject<Int, Never>()
    let b = PassthroughSubject<Int, Never>()
    let subscriber = TrackingSubscriber<Int, Never>()
    a.merge(with: b).subscribe(subscriber)
    a.send(1)
    b.send(2)
    a.send(completion: .finished)
    b.send(3)
    b.send(completion: .finished)
    #expect(subscriber.events == [.subscription, .value(1), .value(2), .value(3), .finished])
  }

  @Test("merge with limited demand holds one value per upstream until asked")
  func mergeDemand() {
    let a = PassthroughSubject<Int, Never>()
    let b = CurrentValueSubject<Int, Never>(10)
    let subscriber = TrackingSubscriber<Int, Never>(onSubscribe: { $0.request(.max(1)) })
    Publishers.MergeMany(a.eraseToAnyPublisher(), b.eraseToAnyPublisher()).subscribe(subscriber)
    a.send(1)
    b.send(11)
    #expect(subscriber.events == [.subscription, .value(10)])
    subscriber.subscription?.request(.max(2))
    #expect(subscriber.events == [.subscription, .value(10), .value(1), .value(11)])
  }

  @Test("handleEvents calls its hooks in order with every event")
  func handleEvents() {
    let subject = PassthroughSubject<Int, Never>()
    let log = Log<String>()
    let cancellable = subject.handleEvents(
      receiveSubscription: { _ in log.append("subscription") },
      receiveOutput: { log.append("output \($0)") },
      receiveCompletion: { log.append("completion \($0)") },
      receiveCancel: { log.append("cancel") },
      receiveRequest: { log.append("request \($0)") }
    ).sink { log.append("sink \($0)") }
    subject.send(1)
    cancellable.cancel()
    subject.send(2)
    #expect(log.all == ["subscription", "request unlimited", "output 1", "sink 1", "cancel"])
  }

  @Test("receive(on:) delivers values and the completion on the queue, in order")
  func receiveOn() {
    let queue = DispatchQueue(label: "receive-on-test")
    let key = DispatchSpecificKey<Bool>()
    queue.setSpecific(key: key, value: true)
    let subject = PassthroughSubject<Int, Never>()
    let log = Log<String>()
    let cancellable = subject.receive(on: queue).sink(
      receiveCompletion: { _ in
        log.append("finished on queue: \(DispatchQueue.getSpecific(key: key) == true)")
      },
      receiveValue: { log.append("\($0) on queue: \(DispatchQueue.getSpecific(key: key) == true)") }
    )
    subject.send(1)
    subject.send(2)
    subject.send(completion: .finished)
    queue.sync {}
    #expect(log.all == ["1 on queue: true", "2 on queue: true", "finished on queue: true"])
    _ = cancellable
  }
}
