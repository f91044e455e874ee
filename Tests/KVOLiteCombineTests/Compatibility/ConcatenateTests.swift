import KVOLiteCombine
import KVOLiteTestSupport
import Testing

/// `append` and `prepend` (`Publishers.Concatenate`), as Combine's: demand is kept across the
/// two sides, and nothing is delivered beyond it or from a side that is not current.
@Suite("Combine compatibility: Concatenate")
struct ConcatenateTests {
  /// A prefix and a suffix whose events the test sends, concatenated, subscribed by a subscriber
  /// that asks for `initial` and answers each value `v` with `.max(v)`.
  static func make(initial: Subscribers.Demand) -> (
    prefix: CustomPublisher<Int, TestError>, suffix: CustomPublisher<Int, TestError>,
    prefixHistory: Log<Event<Int>>, suffixHistory: Log<Event<Int>>,
    subscriber: TrackingSubscriber<Int, TestError>
  ) {
    let prefixHistory = Log<Event<Int>>()
    let suffixHistory = Log<Event<Int>>()
    let prefix = CustomPublisher<Int, TestError>(history: prefixHistory)
    let suffix = CustomPublisher<Int, TestError>(history: suffixHistory)
    let subscriber = TrackingSubscriber<Int, TestError>(
      onSubscribe: { $0.request(initial) }, onValue: { .max($0) })
    prefix.append(suffix).subscribe(subscriber)
    return (prefix, suffix, prefixHistory, suffixHistory, subscriber)
  }

  @Test("the suffix is asked for what is left; values from a side that is not current are ignored")
  func demandAcrossSides() {
    let run = Self.make(initial: .max(10))
    #expect(run.subscriber.subscriptionDescription == "Concatenate")
    #expect(run.prefix.send(1) == .max(1))
    #expect(run.suffix.send(-1) == .none)
    #expect(run.prefix.send(2) == .max(2))
    run.suffix.send(completion: .failure(TestError()))
    run.prefix.send(completion: .finished)
    run.prefix.send(completion: .finished)
    #expect(run.prefixHistory.all == [.requested(.max(10))])
    // 10 asked, 2 delivered, 1 + 2 more asked while delivering.
    #expect(run.suffixHistory.all == [.requested(.max(11))])
    #expect(run.prefix.send(4000) == .none)
    #expect(run.suffix.send(5) == .max(5))
    run.suffix.send(completion: .finished)
    run.suffix.send(completion: .failure(TestError()))
    #expect(run.suffix.send(7) == .none)
    #expect(run.subscriber.events == [.subscription, .value(1), .value(2), .value(5), .finished])
  }

  @Test("values sent from inside a delivery stop when the demand is used up")
  func reentrantValuesWithinDemand() {
    let history = Log<Event<Int>>()
    let upstream = CustomPublisher<Int, Never>(history: Log())
    var depth = 10
    let subscriber = TrackingSubscriber<Int, Never>(
      history: history, onSubscribe: { $0.request(.max(3)) },
      onValue: { value in
        guard depth > 0 else { return .none }
        depth -= 1
        #expect(upstream.send(value + 1) == .none)
        return .none
      })
    upstream.append(100).subscribe(subscriber)
    #expect(upstream.send(1) == .none)
    #expect(history.all == [.subscription, .value(1), .value(2), .value(3)])
  }

  @Test("requests go to the current side (.none too); between the sides they are kept")
  func requests() {
    let run = Self.make(initial: .max(10))
    var downstream: (any Subscription)? { run.subscriber.subscription }
    downstream?.request(.none)
    #expect(run.prefix.send(3) == .max(3))
    run.prefix.send(completion: .finished)
    #expect(run.prefixHistory.all == [.requested(.max(10)), .requested(.none)])
    #expect(run.suffixHistory.all == [.requested(.max(12))])
    downstream?.request(.unlimited)
    run.suffix.send(completion: .finished)
    downstream?.request(.max(42))
    #expect(run.suffixHistory.all == [.requested(.max(12)), .requested(.unlimited)])
  }

  @Test("a cancel before the prefix finishes never subscribes the suffix, and lets go of it")
  func cancel() {
    let run = Self.make(initial: .max(1))
    run.subscriber.subscription?.cancel()
    run.subscriber.subscription?.cancel()
    run.subscriber.subscription?.request(.max(2))
    #expect(run.prefix.send(0) == .none)
    run.prefix.send(completion: .finished)
    #expect(run.prefixHistory.all == [.requested(.max(1)), .cancelled])
    #expect(run.suffixHistory.all == [])
    #expect(run.subscriber.events == [.subscription])

    weak var released: CustomPublisher<Int, Never>?
    var subscription: (any Subscription)?
    do {
      let suffix = CustomPublisher<Int, Never>(history: Log())
      released = suffix
      CustomPublisher<Int, Never>(history: Log()).append(suffix).subscribe(
        TrackingSubscriber<Int, Never>(onSubscribe: { subscription = $0 }))
    }
    #expect(released != nil)
    subscription?.cancel()
    #expect(released == nil)
  }

  @Test("both inner subscribers share the subscription's identifier and describe it")
  func identity() {
    let prefix = CustomPublisher<Int, Never>(history: Log())
    let suffix = CustomPublisher<Int, Never>(history: Log())
    let subscriber = TrackingSubscriber<Int, Never>()
    prefix.append(suffix).subscribe(subscriber)
    prefix.send(completion: .finished)
    let identifier = subscriber.subscription?.combineIdentifier
    let prefixSide = prefix.subscriber as? any CustomCombineIdentifierConvertible
    let suffixSide = suffix.subscriber as? any CustomCombineIdentifierConvertible
    #expect(prefixSide?.combineIdentifier == identifier)
    #expect(suffixSide?.combineIdentifier == identifier)
    #expect(prefix.subscriberDescription == "Concatenate")
    #expect(suffix.subscriberDescription == "Concatenate")
    #expect(prefix.subscriberMirror == [] && suffix.subscriberMirror == [])
  }

  @Test(
    "the subscription, the prefix's subscriber and the suffix's subscriber are three types, as Combine's"
  )
  func threeTypes() throws {
    let prefix = CustomPublisher<Int, Never>(history: Log())
    let suffix = CustomPublisher<Int, Never>(history: Log())
    let subscriber = TrackingSubscriber<Int, Never>()
    prefix.append(suffix).subscribe(subscriber)
    prefix.send(completion: .finished)
    let subscription = try #require(subscriber.subscription)
    let prefixSide = try #require(prefix.subscriber)
    let suffixSide = try #require(suffix.subscriber)
    #expect(type(of: subscription) != type(of: prefixSide))
    #expect(type(of: subscription) != type(of: suffixSide))
    #expect(type(of: prefixSide) != type(of: suffixSide))
  }

  @Test("the suffix is subscribed when the prefix finishes, and asked for the demand left")
  func concatenate() {
    let history = Log<Event<Int>>()
    let prefix = CustomPublisher<Int, TestError>(history: history)
    let suffix = CustomPublisher<Int, TestError>(history: history)
    let subscriber = TrackingSubscriber<Int, TestError>(
      history: history, onSubscribe: { $0.request(.max(3)) })
    prefix.append(suffix).subscribe(subscriber)
    #expect(subscriber.subscriptionDescription == "Concatenate")
    #expect(prefix.send(1) == .none)
    prefix.send(completion: .finished)
    #expect(suffix.send(2) == .none)
    suffix.send(completion: .failure(TestError()))
    #expect(
      history.all == [
        .subscription, .requested(.max(3)), .value(1), .requested(.max(2)), .value(2),
        .failed(TestError()),
      ])
    #expect(
      [2, 3].publisher.eraseToAnyPublisher().prepend(1).append(4, 5).append([6]).prepend([0])
        .collect().sinkValues() == [[0, 1, 2, 3, 4, 5, 6]])
  }

  @Test("a failing prefix never subscribes the suffix; cancel reaches the current subscription")
  func prefixFailure() {
    var subscribed = false
    let subscriber = TrackingSubscriber<Int, TestError>()
    Fail<Int, TestError>(error: TestError()).append(
      Deferred { () -> Just<Int> in
        subscribed = true
        return Just(1)
      }.setFailureType(to: TestError.self)
    ).subscribe(subscriber)
    #expect(!subscribed && subscriber.events == [.subscription, .failed(TestError())])
  }
}
