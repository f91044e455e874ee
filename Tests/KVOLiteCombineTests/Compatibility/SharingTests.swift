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

  /// A connectable publisher that records its connections and their cancellation; its
  /// connections do nothing when released (unlike an `AnyCancellable`).
  final class RecordingConnectable: ConnectablePublisher, @unchecked Sendable {
    typealias Output = Int
    typealias Failure = Never
    /// A connection: records its cancel.
    final class Connection: Cancellable {
      let log: Log<String>
      init(log: Log<String>) { self.log = log }
      func cancel() { log.append("disconnected") }
    }
    let log = Log<String>()
    let subject = PassthroughSubject<Int, Never>()
    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
      subject.subscribe(subscriber)
    }
    func connect() -> any Cancellable {
      log.append("connected")
      return Connection(log: log)
    }
  }

  @Test(
    "autoconnect: a subscriber attached from inside the first one's subscription connects again; the later connection is the one the last cancel ends"
  )
  func autoconnectReentrance() {
    let upstream = RecordingConnectable()
    let autoconnect = upstream.autoconnect()
    let inner = TrackingSubscriber<Int, Never>()
    let outer = TrackingSubscriber<Int, Never>(onSubscribe: { _ in autoconnect.subscribe(inner) })
    autoconnect.subscribe(outer)
    #expect(upstream.log.all == ["connected", "connected"])
    outer.subscription?.cancel()
    #expect(upstream.log.all == ["connected", "connected", "disconnected"])
    inner.subscription?.cancel()
    #expect(upstream.log.all == ["connected", "connected", "disconnected"])
  }

  @Test(
    "autoconnect: a connection made for a subscriber that cancelled before it was made is cancelled at once (a deliberate difference: Combine keeps it)"
  )
  func autoconnectCancelBeforeConnect() {
    let upstream = RecordingConnectable()
    let autoconnect = upstream.autoconnect()
    let subscriber = TrackingSubscriber<Int, Never>(onSubscribe: { $0.cancel() })
    autoconnect.subscribe(subscriber)
    #expect(upstream.log.all == ["connected", "disconnected"])
    let next = TrackingSubscriber<Int, Never>()
    autoconnect.subscribe(next)
    upstream.subject.send(1)
    #expect(next.events == [.subscription, .value(1)])
    #expect(upstream.log.all == ["connected", "disconnected", "connected"])
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
