import KVOLiteCombine
import KVOLiteTestSupport
import Testing

/// `AnySubscriber`, `Publisher.subscribe(_: Subject)` and `print`.
@Suite("Combine compatibility: AnySubscriber, subscribe(subject), print")
struct SubscriberTests {
  @Test("AnySubscriber forwards to what it wraps, with its identity and description")
  func anySubscriber() {
    let tracking = TrackingSubscriber<Int, TestError>(onValue: { _ in .max(2) })
    let erased = AnySubscriber(tracking)
    #expect(erased.combineIdentifier == tracking.combineIdentifier)
    #expect(AnySubscriber(erased).combineIdentifier == tracking.combineIdentifier)
    let upstream = CustomPublisher<Int, TestError>(history: Log())
    upstream.subscribe(erased)
    #expect(upstream.send(1) == .max(2))
    upstream.send(completion: .finished)
    #expect(tracking.events == [.subscription, .value(1), .finished])
    var values: [Int] = []
    let closures = AnySubscriber<Int, Never>(receiveValue: {
      values.append($0)
      return .max(1)
    })
    #expect(closures.description == "Anonymous AnySubscriber")
    #expect(closures.receive(3) == .max(1) && values == [3])
    #expect(AnySubscriber<Int, Never>().receive(1) == .none)
  }

  @Test(
    "AnySubscriber's mirror: the wrapped subscriber's custom mirror, or one of it with no children; made of closures, its description's"
  )
  func anySubscriberMirror() {
    let closures = Mirror(reflecting: AnySubscriber<Int, TestError>())
    #expect(String(describing: closures.subjectType) == "String" && closures.children.isEmpty)
    let subject = Mirror(reflecting: AnySubscriber(PassthroughSubject<Int, TestError>()))
    #expect(
      String(describing: subject.subjectType)
        == "SubjectSubscriber<PassthroughSubject<Int, TestError>>"
    )
    #expect(
      subject.children.map(\.label) == ["downstreamSubject", "upstreamSubscription", "subject"])
    // TrackingSubscriber has stored properties but no custom mirror.
    let plain = Mirror(reflecting: AnySubscriber(TrackingSubscriber<Int, TestError>()))
    #expect(
      String(describing: plain.subjectType) == "TrackingSubscriber<Int, TestError>"
        && plain.children.isEmpty)
  }

  @Test("subscribe(subject) feeds a subject, which asks upstream once its own subscriber asks")
  func subscribeSubject() {
    let history = Log<Event<Int>>()
    let upstream = CustomPublisher<Int, TestError>(history: history)
    let subject = PassthroughSubject<Int, TestError>()
    let cancellable = upstream.subscribe(subject)
    #expect(history.all == [])
    #expect(upstream.subscriberDescription == "Subject")
    let subscriber = TrackingSubscriber<Int, TestError>(history: history)
    subject.subscribe(subscriber)
    upstream.send(5)
    upstream.send(completion: .finished)
    upstream.send(6)
    #expect(history.all == [.subscription, .requested(.unlimited), .value(5), .finished])
    cancellable.cancel()
    let anyHistory = Log<Event<Int>>()
    let other = CustomPublisher<Int, TestError>(history: anyHistory)
    let current = CurrentValueSubject<Int, TestError>(0)
    other.subscribe(AnySubscriber(current))
    other.send(7)
    #expect(current.value == 7 && anyHistory.all == [.requested(.unlimited)])
  }

  @Test("print writes Combine's lines for every event")
  func print() {
    final class Lines: TextOutputStream, @unchecked Sendable {
      var text = ""
      func write(_ string: String) { text += string }
    }
    let lines = Lines()
    let subscriber = TrackingSubscriber<Int, Never>(
      onSubscribe: { $0.request(.max(1)) }, onValue: { _ in .max(1) })
    [1, 2].publisher.print("n", to: lines).subscribe(subscriber)
    subscriber.subscription?.cancel()
    #expect(
      lines.text == """
        n: receive subscription: ([1, 2])
        n: request max: (1)
        n: receive value: (1)
        n: request max: (1) (synchronous)
        n: receive value: (2)
        n: request max: (1) (synchronous)
        n: receive finished
        n: receive cancel

        """)
    #expect(subscriber.events == [.subscription, .value(1), .value(2), .finished])
  }
}
