import KVOLiteCombine
import KVOLiteTestSupport
import Testing

/// `Subscribers.Assign` and `Just` as Combine's.
@Suite("Combine compatibility: Assign and Just")
struct AssignAndJustTests {
  final class Target {
    var value = 0
    let released: Counter
    init(_ released: Counter) { self.released = released }
    deinit { released.increment() }
  }

  @Test("assign only while subscribed; completion and cancel before subscription do nothing")
  func assign() {
    let history = Log<Event<Int>>()
    let released = Counter()
    var target: Target? = Target(released)
    let assign = Subscribers.Assign(object: target!, keyPath: \Target.value)
    #expect(assign.description == "Assign Target.")
    #expect(Mirror(reflecting: assign).children.map(\.label) == ["object", "keyPath", "status"])
    #expect(assign.receive(1) == .none)
    #expect(target?.value == 0)
    assign.receive(completion: .finished)
    assign.cancel()
    assign.receive(subscription: CustomSubscription(history: history))
    assign.receive(subscription: CustomSubscription(history: history))
    #expect(assign.receive(2) == .none)
    #expect(target?.value == 2)
    target = nil
    #expect(released.count == 0)
    assign.receive(completion: .finished)
    #expect(released.count == 1 && assign.object == nil)
    assign.cancel()
    #expect(history.all == [.requested(.unlimited), .cancelled])
  }

  @Test(
    "Just delivers its value and finishes on the first request; describes itself with its value")
  func just() async {
    let subscriber = TrackingSubscriber<Int, Never>(onSubscribe: { _ in })
    Just(5).subscribe(subscriber)
    #expect(subscriber.subscriptionDescription == "Just")
    #expect(Mirror(reflecting: subscriber.subscription!).children.map { "\($0.value)" } == ["5"])
    #expect(subscriber.events == [.subscription])
    subscriber.subscription?.request(.max(1))
    subscriber.subscription?.request(.max(1))
    #expect(subscriber.events == [.subscription, .value(5), .finished])
    let cancelled = TrackingSubscriber<Int, Never>(onSubscribe: { $0.cancel() })
    Just(6).subscribe(cancelled)
    cancelled.subscription?.request(.max(1))
    #expect(cancelled.events == [.subscription])
    await #expect(processExitsWith: .failure) {
      Just(1).subscribe(TrackingSubscriber<Int, Never>(onSubscribe: { $0.request(.none) }))
    }
  }
}
