import KVOLiteCombine
import KVOLiteTestSupport
import Testing

/// `zip` (2–4), `merge` (3–8) and `combineLatest` (3–4).
@Suite("Combine compatibility: zip, merge with many, combineLatest of three and four")
struct CombiningArityTests {
  @Test(
    "zip pairs values in order, asks every upstream for downstream's demand, finishes when no pair is possible"
  )
  func zip() {
    let history = Log<Event<Int>>()
    let a = CustomPublisher<Int, TestError>(history: history, subscribesAtOnce: false)
    let b = CustomPublisher<Int, TestError>(history: history, subscribesAtOnce: false)
    var pairs: [String] = []
    let subscriber = AnySubscriber<(Int, Int), TestError>(
      receiveSubscription: { $0.request(.max(2)) },
      receiveValue: {
        pairs.append("\($0.0)-\($0.1)")
        return .none
      },
      receiveCompletion: { pairs.append("\($0)") })
    a.zip(b).subscribe(subscriber)
    a.sendSubscription()
    #expect(history.all == [])
    b.sendSubscription()
    #expect(history.all == [.requested(.max(2)), .requested(.max(2))])
    a.send(1)
    a.send(2)
    b.send(10)
    a.send(completion: .finished)
    #expect(pairs == ["1-10"])
    b.send(20)
    #expect(pairs == ["1-10", "2-20", "finished"])
    #expect(history.all == [.requested(.max(2)), .requested(.max(2)), .cancelled])
  }

  @Test(
    "zip: a failure reaches downstream first, then every upstream is cancelled, the failed one too")
  func zipFailureCancelsEveryUpstream() {
    let history = Log<Event<Int>>()
    let a = CustomPublisher<Int, TestError>(history: history)
    let b = CustomPublisher<Int, TestError>(history: history)
    let c = CustomPublisher<Int, TestError>(history: history)
    let subscriber = TrackingSubscriber<Int, TestError>(history: history)
    a.zip(b, c) { $0 + $1 + $2 }.subscribe(subscriber)
    b.send(completion: .failure(TestError()))
    #expect(
      history.all == [
        .subscription, .requested(.unlimited), .requested(.unlimited), .requested(.unlimited),
        .failed(TestError()), .cancelled, .cancelled, .cancelled,
      ])
  }

  @Test("zip of three and four, and with a transform; a failure fails at once")
  func zipArities() {
    let three: [[String]] = [1, 2].publisher.zip(["a", "b"].publisher, [true, false].publisher)
      .map { (a: Int, b: String, c: Bool) -> String in "\(a)\(b)\(c)" }.collect().sinkValues()
    #expect(three == [["1atrue", "2bfalse"]])
    let four: [[Int]] = [1].publisher.zip([2].publisher, [3].publisher, [4].publisher)
      .map { (a: Int, b: Int, c: Int, d: Int) -> Int in a + b + c + d }.collect().sinkValues()
    #expect(four == [[10]])
    let summed: [[Int]] = [1, 2, 3].publisher.zip([10, 20].publisher) { (a: Int, b: Int) -> Int in
      a + b
    }.collect().sinkValues()
    #expect(summed == [[11, 22]])
    let subscriber = TrackingSubscriber<Int, TestError>()
    PassthroughSubject<Int, TestError>().zip(Fail<Int, TestError>(error: TestError())).map {
      $0 + $1
    }.subscribe(subscriber)
    #expect(subscriber.events == [.subscription, .failed(TestError())])
  }

  @Test("merge of three to eight publishers interleaves them all")
  func mergeMany() {
    let p = (0..<8).map { _ in PassthroughSubject<Int, Never>() }
    var seen: [Int] = []
    let three = p[0].merge(with: p[1], p[2]).sink { seen.append($0) }
    let eight = p[0].merge(with: p[1], p[2], p[3], p[4], p[5], p[6], p[7]).sink {
      seen.append($0 * 10)
    }
    for (index, subject) in p.enumerated() { subject.send(index) }
    #expect(seen == [0, 0, 1, 10, 2, 20, 30, 40, 50, 60, 70])
    _ = (three, eight)
  }

  @Test("combineLatest of three and four publishes once all have, then on every change")
  func combineLatestArities() {
    let a = PassthroughSubject<Int, Never>()
    let b = PassthroughSubject<String, Never>()
    let c = PassthroughSubject<Bool, Never>()
    let d = PassthroughSubject<Int, Never>()
    var three: [String] = []
    var four: [Int] = []
    let first = a.combineLatest(b, c) { "\($0)\($1)\($2)" }.sink { three.append($0) }
    let second = a.combineLatest(b, c, d).map { $0.0 + $0.3 }.sink { four.append($0) }
    a.send(1)
    b.send("x")
    c.send(true)
    d.send(5)
    a.send(2)
    #expect(three == ["1xtrue", "2xtrue"])
    #expect(four == [6, 7])
    _ = (first, second)
  }
}

/// `combineLatest` of three and four is one subscription over all its upstreams, as Combine's.
@Suite("Combine compatibility: combineLatest of three and four is one subscription")
struct CombineLatestArityTests {
  @Test("a value that changes while there is no demand is the one combined when demand comes")
  func latestValuesUnderLimitedDemand() {
    let a = PassthroughSubject<Int, Never>()
    let b = PassthroughSubject<Int, Never>()
    let c = PassthroughSubject<Int, Never>()
    let d = PassthroughSubject<Int, Never>()
    let three = TrackingSubscriber<[Int], Never>(onSubscribe: { $0.request(.max(2)) })
    let four = TrackingSubscriber<[Int], Never>(onSubscribe: { $0.request(.max(2)) })
    a.combineLatest(b, c).map { [$0.0, $0.1, $0.2] }.subscribe(three)
    a.combineLatest(b, c, d).map { [$0.0, $0.1, $0.2, $0.3] }.subscribe(four)
    d.send(4)
    a.send(1)
    b.send(2)
    b.send(5)
    a.send(7)
    c.send(3)
    #expect(three.events == [.subscription, .value([7, 5, 3])])
    #expect(four.events == [.subscription, .value([7, 5, 3, 4])])
    #expect(three.subscriptionDescription == "CombineLatest")
    #expect(four.subscriptionDescription == "CombineLatest")
  }

  @Test("downstream's demand is asked of every upstream directly; a failure cancels the others")
  func demandAndFailure() {
    let history = Log<Event<Int>>()
    let upstreams = (0..<3).map { _ in CustomPublisher<Int, TestError>(history: history) }
    let subscriber = TrackingSubscriber<[Int], TestError>(onSubscribe: { $0.request(.max(2)) })
    upstreams[0].combineLatest(upstreams[1], upstreams[2]).map { [$0.0, $0.1, $0.2] }
      .subscribe(subscriber)
    let requests = Array(repeating: Event<Int>.requested(.max(2)), count: 3)
    #expect(history.all == requests)
    upstreams[1].send(completion: .failure(TestError()))
    #expect(history.all == requests + [.cancelled, .cancelled])
    #expect(subscriber.events == [.subscription, .failed(TestError())])
  }
}
