import Foundation
import KVOLiteCombine
import KVOLiteCombineFoundation
import KVOLiteTestSupport
import Testing

/// `NotificationCenter.Publisher`, as Foundation's (OpenCombine's compatibility tests record
/// it). Tested by posting: swift-corelibs-foundation declares the observer methods in an
/// extension, so a subclass cannot record them.
@Suite("Foundation: NotificationCenter.Publisher")
struct NotificationPublisherTests {
  static let name = Notification.Name("NotificationPublisherTests")

  @Test("the observer is there before the subscriber has its subscription, gone after cancel")
  func observer() {
    let center = NotificationCenter()
    var received: [String] = []
    let subscriber = AnySubscriber<Notification, Never>(
      receiveSubscription: { subscription in
        subscription.request(.max(1))
        // Posted while the subscriber receives its subscription: already observed.
        center.post(name: Self.name, object: nil, userInfo: ["n": "early"])
        subscription.request(.none)
        subscription.request(.max(1))
        center.post(name: Self.name, object: nil, userInfo: ["n": "second"])
        subscription.cancel()
        subscription.cancel()
        center.post(name: Self.name, object: nil, userInfo: ["n": "late"])
      },
      receiveValue: {
        received.append(($0.userInfo?["n"] as? String) ?? "?")
        return .none
      })
    center.publisher(for: Self.name).subscribe(subscriber)
    #expect(received == ["early", "second"])
  }

  @Test("the subscription describes itself as Foundation's")
  func reflection() {
    let center = NotificationCenter()
    let subscriber = TrackingSubscriber<String, Never>(onSubscribe: { _ in })
    center.publisher(for: Self.name).map(\.name.rawValue).subscribe(subscriber)
    #expect(subscriber.subscriptionDescription == "NotificationCenter Observer")
    let labels = Mirror(reflecting: subscriber.subscription!).children.map(\.label)
    #expect(labels == ["center", "name", "object", "demand"])
    subscriber.subscription?.cancel()
  }

  @Test("the observer holds the subscription weakly: once nobody keeps it, nothing arrives")
  func weakObserver() {
    let center = NotificationCenter()
    let received = Counter()
    do {
      // A subscriber that asks for everything and does not keep its subscription.
      let subscriber = AnySubscriber<Notification, Never>(
        receiveSubscription: { $0.request(.unlimited) },
        receiveValue: { _ in
          received.increment()
          return .none
        })
      center.publisher(for: Self.name).subscribe(subscriber)
    }
    center.post(name: Self.name, object: nil)
    #expect(received.count == 0)
  }

  @Test(
    "publishers are equal when center, name and object are the same (the object by identity, as Apple's)"
  )
  func equality() {
    let center = NotificationCenter()
    let object = NSObject()
    #expect(center.publisher(for: Self.name) == center.publisher(for: Self.name))
    #expect(
      center.publisher(for: Self.name, object: object)
        == center.publisher(for: Self.name, object: object))
    #expect(center.publisher(for: Self.name) != NotificationCenter().publisher(for: Self.name))
    #expect(center.publisher(for: Self.name) != center.publisher(for: Self.name, object: object))
    #expect(center.publisher(for: Self.name) != center.publisher(for: .init("other")))
    // Equal objects that are two instances make two publishers (Apple's compares with ===).
    let first = NSMutableString(string: "object")
    let second = NSMutableString(string: "object")
    #expect(first.isEqual(second))
    #expect(
      center.publisher(for: Self.name, object: first)
        != center.publisher(for: Self.name, object: second))
  }
}
