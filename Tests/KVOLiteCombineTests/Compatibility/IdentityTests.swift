import KVOLiteCombine
import KVOLiteTestSupport
import Testing

/// Identity and reflection as Combine has them: identifiers, and how subscriptions and inner
/// subscribers describe and mirror themselves (and where they do not).
@Suite("Combine compatibility: identity and reflection")
struct IdentityTests {
  final class Object {}

  /// `label: value` text for each child of `subject`'s mirror.
  static func children(_ subject: Any) -> [String] {
    Mirror(reflecting: subject).children.map { "\($0.label ?? ""): \($0.value)" }
  }

  @Test("CombineIdentifier of an object is its address; its mirror holds one UInt64")
  func combineIdentifier() {
    let first = Object()
    let second = Object()
    #expect(CombineIdentifier(first) == CombineIdentifier(first))
    #expect(CombineIdentifier(first) != CombineIdentifier(second))
    let address = UInt(bitPattern: ObjectIdentifier(first))
    #expect(CombineIdentifier(first).description == "0x" + String(address, radix: 16))
    #expect(CombineIdentifier() != CombineIdentifier())
    let mirror = Mirror(reflecting: CombineIdentifier())
    #expect(mirror.children.count == 1 && mirror.descendant("rawValue") is UInt64)
  }

  @Test("Record's subscription is described by its values, then as Cancelled Events")
  func record() {
    let record = Record<Int, TestError>(output: [1, 2], completion: .finished)
    let subscriber = TrackingSubscriber<Int, TestError>(onSubscribe: { _ in })
    record.subscribe(subscriber)
    #expect(subscriber.subscriptionDescription == "[1, 2]")
    #expect(
      Self.children(subscriber.subscription!) == ["sequence: [1, 2]", "completion: finished"])
    subscriber.subscription?.request(.max(3))
    #expect(subscriber.subscriptionDescription == "Cancelled Events")
    #expect(Self.children(subscriber.subscription!) == ["sequence: []", "completion: finished"])
    let empty = TrackingSubscriber<Int, TestError>()
    Record<Int, TestError>(output: [], completion: .failure(TestError())).subscribe(empty)
    #expect(empty.subscriptionDescription == "Empty")
    #expect(empty.events == [.subscription, .failed(TestError())])
  }

  @Test("a sequence's subscription mirrors its sequence, not an optional")
  func sequence() {
    let subscriber = TrackingSubscriber<Int, Never>(onSubscribe: { _ in })
    (1...5).publisher.subscribe(subscriber)
    #expect(subscriber.subscriptionDescription == "1...5")
    #expect(Self.children(subscriber.subscription!) == ["sequence: 1...5"])
  }

  @Test("inner subscribers describe themselves, and share identifiers, as Combine's do")
  func innerSubscribers() {
    let upstream = CustomPublisher<Int, Never>(history: Log())
    let child = CustomPublisher<Int, Never>(history: Log())
    let subscriber = TrackingSubscriber<Int, Never>()
    upstream.flatMap { _ in child }.subscribe(subscriber)
    // flatMap, like Combine's, subscribes its subscription itself upstream.
    #expect(upstream.subscriber as AnyObject === subscriber.subscription as AnyObject)
    #expect(upstream.send(0) == .none)
    #expect(child.subscriberDescription == "FlatMap")
    let parent = subscriber.subscription!.combineIdentifier
    #expect(child.subscriberMirror == ["parentSubscription: \(parent)"])
    // Delay's subscription does not describe itself, as in Combine.
    let delayed = TrackingSubscriber<Int, Never>()
    upstream.delay(for: 1, scheduler: ImmediateScheduler.shared).subscribe(delayed)
    #expect(!(delayed.subscription is any CustomStringConvertible))
  }

  @Test(
    "mirrors with Combine's children: assertNoFailure's file, line and prefix; collect()'s count; objectWillChange's downstream; @Published's parent, downstream, demand and subject"
  )
  func mirrors() {
    let upstream = CustomPublisher<Int, TestError>(history: Log())
    upstream.assertNoFailure("PREFIX", file: "Model.swift", line: 42)
      .subscribe(TrackingSubscriber<Int, Never>())
    #expect(upstream.subscriberDescription == "AssertNoFailure")
    #expect(upstream.subscriberMirror == ["file: Model.swift", "line: 42", "prefix: PREFIX"])

    let collected = TrackingSubscriber<[Int], TestError>(onSubscribe: { _ in })
    let values = CustomPublisher<Int, TestError>(history: Log())
    values.collect().subscribe(collected)
    #expect(Self.children(collected.subscription!) == ["count: 0"])
    values.send(1)
    values.send(2)
    #expect(Self.children(collected.subscription!) == ["count: 2"])

    var willChange: (any Subscription)?
    ObservableObjectPublisher().subscribe(
      AnySubscriber<Void, Never>(receiveSubscription: { willChange = $0 }))
    #expect(willChange.map { "\($0)" } == "ObservableObjectPublisher")
    let willChangeChildren = willChange.map { Self.children($0) } ?? []
    #expect(willChangeChildren.count == 1)
    #expect(willChangeChildren.first?.hasPrefix("downstream: ") == true)
    #expect(willChangeChildren.first?.contains("Anonymous AnySubscriber") == true)
    final class Model: ObservableObject {
      @Published var state = 0
    }
    let model = Model()
    let published = TrackingSubscriber<Int, Never>(onSubscribe: { _ in })
    model.$state.subscribe(published)
    #expect(published.subscriptionDescription == "PublishedSubject")
    let children = Mirror(reflecting: published.subscription!).children.map {
      ($0.label ?? "", "\($0.value)")
    }
    #expect(children.map(\.0) == ["parent", "downstream", "demand", "subject"])
    #expect(
      children[0].1.contains("PublishedSubject") && children[3].1.contains("PublishedSubject"))
    #expect(children[1].1.contains("TrackingSubscriber") && children[2].1 == "max(0)")
  }
}
