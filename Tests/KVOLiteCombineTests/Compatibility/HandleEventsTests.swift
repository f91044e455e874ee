import KVOLiteCombine
import KVOLiteTestSupport
import Testing

/// `handleEvents` with Combine's order of hooks and events.
@Suite("Combine compatibility: handleEvents")
struct HandleEventsTests {
  /// A publisher with every hook recording into `history` as `value(-n)` markers.
  static func hooked(_ upstream: CustomPublisher<Int, TestError>, _ history: Log<Event<Int>>)
    -> Publishers.HandleEvents<CustomPublisher<Int, TestError>>
  {
    upstream.handleEvents(
      receiveSubscription: { _ in history.append(.value(-1)) },
      receiveOutput: { history.append(.value(-100 - $0)) },
      receiveCompletion: { _ in history.append(.value(-3)) },
      receiveCancel: { history.append(.value(-4)) },
      receiveRequest: {
        history.append(.requested($0))
        history.append(.value(-5))
      })
  }

  @Test("each hook runs before its event goes on; returned demand is reported too")
  func order() {
    let history = Log<Event<Int>>()
    let upstream = CustomPublisher<Int, TestError>(history: history)
    let subscriber = TrackingSubscriber<Int, TestError>(
      history: history, onSubscribe: { $0.request(.max(1)) }, onValue: { $0 == 1 ? .max(2) : .none }
    )
    Self.hooked(upstream, history).subscribe(subscriber)
    #expect(subscriber.subscriptionDescription == "HandleEvents")
    #expect(upstream.send(1) == .max(2))
    #expect(upstream.send(2) == .none)
    upstream.send(completion: .finished)
    subscriber.subscription?.cancel()
    #expect(
      history.all == [
        .value(-1), .subscription, .requested(.max(1)), .value(-5), .requested(.max(1)),
        .value(-101), .value(1), .requested(.max(2)), .value(-5),
        .value(-102), .value(2),
        .value(-3), .finished,
      ])
  }

  @Test(
    "cancel runs its hook once, then cancels upstream; as in Combine, a value sent after it still reaches the subscriber, without hooks"
  )
  func cancel() {
    let history = Log<Event<Int>>()
    let upstream = CustomPublisher<Int, TestError>(history: history)
    let subscriber = TrackingSubscriber<Int, TestError>(history: history, onSubscribe: { _ in })
    Self.hooked(upstream, history).subscribe(subscriber)
    subscriber.subscription?.cancel()
    subscriber.subscription?.cancel()
    #expect(upstream.send(7) == .none)
    #expect(history.all == [.value(-1), .subscription, .value(-4), .cancelled, .value(7)])
  }

  @Test("after the completion, what upstream sends is handed on without hooks, as in Combine")
  func afterCompletion() {
    let history = Log<Event<Int>>()
    let upstream = CustomPublisher<Int, TestError>(history: history)
    let subscriber = TrackingSubscriber<Int, TestError>(
      history: history, onSubscribe: { _ in }, onValue: { .max($0) })
    Self.hooked(upstream, history).subscribe(subscriber)
    upstream.send(completion: .finished)
    upstream.send(completion: .failure(TestError()))
    #expect(upstream.send(144) == .max(144))
    #expect(
      history.all == [
        .value(-1), .subscription, .value(-3), .finished, .failed(TestError()), .value(144),
      ])
  }

  @Test("handleEvents and breakpoint do not keep the upstream publisher alive")
  func upstreamNotKept() {
    weak var handled: CustomPublisher<Int, TestError>?
    weak var broken: CustomPublisher<Int, TestError>?
    let first = TrackingSubscriber<Int, TestError>()
    let second = TrackingSubscriber<Int, TestError>()
    do {
      let upstream = CustomPublisher<Int, TestError>(history: Log())
      handled = upstream
      upstream.handleEvents(receiveOutput: { _ in }).subscribe(first)
      let other = CustomPublisher<Int, TestError>(history: Log())
      broken = other
      other.breakpoint(receiveOutput: { _ in false }).subscribe(second)
    }
    #expect(handled == nil && broken == nil)
    #expect(first.subscription != nil && second.subscription != nil)
  }

  @Test("a value before subscription is reported and passed on; a cancel before it keeps the hooks")
  func beforeSubscription() {
    let history = Log<Event<Int>>()
    let upstream = CustomPublisher<Int, TestError>(history: history, subscribesAtOnce: false)
    let subscriber = TrackingSubscriber<Int, TestError>(history: history)
    let events = Self.hooked(upstream, history)
    events.subscribe(subscriber)
    #expect(upstream.send(5) == .none)
    upstream.sendSubscription()
    #expect(
      history.all == [
        .value(-105), .value(5), .value(-1), .subscription, .requested(.unlimited), .value(-5),
        .requested(.unlimited),
      ])
  }
}
