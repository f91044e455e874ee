import KVOLiteCombine
import KVOLiteTestSupport
import Testing

/// `multicast`, `makeConnectable`, `autoconnect` and `share`.
@Suite("Combine compatibility: multicast, makeConnectable, autoconnect, share")
struct SharingTests {
  @Test(
    "makeConnectable waits for connect; every subscriber then gets the values; cancelling the connection stops them"
  )
  func makeConnectable() {
    let history = Log<Event<Int>>()
    let upstream = CustomPublisher<Int, Never>(history: history)
    let connectable = upstream.makeConnectable()
    let first = TrackingSubscriber<Int, Never>()
    let second = TrackingSubscriber<Int, Never>(onSubscribe: { $0.request(.max(1)) })
    connectable.subscribe(first)
    connectable.subscribe(second)
    #expect(history.all == [] && first.subscriptionDescription == "Multicast")
    let connection = connectable.connect()
    #expect(history.all == [.requested(.unlimited)])
    upstream.send(1)
    upstream.send(2)
    #expect(first.events == [.subscription, .value(1), .value(2)])
    #expect(second.events == [.subscription, .value(1)])
    connection.cancel()
    #expect(history.all == [.requested(.unlimited), .cancelled])
  }

  @Test(
    "multicast through a current-value subject: subscribers get its value, then upstream's after connect"
  )
  func multicast() {
    let upstream = PassthroughSubject<Int, Never>()
    var made = 0
    let multicast = upstream.multicast { () -> CurrentValueSubject<Int, Never> in
      made += 1
      return CurrentValueSubject(0)
    }
    var seen: [Int] = []
    let cancellable = multicast.sink { seen.append($0) }
    let connection = multicast.connect()
    upstream.send(5)
    #expect(seen == [0, 5] && made == 1)
    _ = (cancellable, connection)
  }

  @Test("autoconnect connects with the first subscriber and disconnects when the last cancels")
  func autoconnect() {
    let history = Log<Event<Int>>()
    let upstream = CustomPublisher<Int, Never>(history: history)
    let shared = upstream.makeConnectable().autoconnect()
    let first = TrackingSubscriber<Int, Never>()
    let second = TrackingSubscriber<Int, Never>()
    shared.subscribe(first)
    #expect(history.all == [.requested(.unlimited)])
    shared.subscribe(second)
    upstream.send(3)
    #expect(
      first.events == [.subscription, .value(3)] && second.events == [.subscription, .value(3)])
    #expect(first.subscriptionDescription == "Multicast")
    first.subscription?.cancel()
    first.subscription?.cancel()
    #expect(history.all == [.requested(.unlimited)])
    second.subscription?.cancel()
    #expect(history.all == [.requested(.unlimited), .cancelled])
  }

  @Test("share: one upstream subscription for all subscribers, not replayed to late ones")
  func share() {
    var subscriptions = 0
    let upstream = PassthroughSubject<Int, Never>()
    let shared = upstream.handleEvents(receiveSubscription: { _ in subscriptions += 1 }).share()
    #expect(shared == shared && upstream.share() != upstream.share())
    var first: [Int] = []
    var second: [Int] = []
    let a = shared.sink { first.append($0) }
    upstream.send(1)
    let b = shared.sink { second.append($0) }
    upstream.send(2)
    #expect(first == [1, 2] && second == [2] && subscriptions == 1)
    _ = (a, b)
  }
}
