import Foundation
import KVOLiteCombine
import KVOLiteCombineFoundation
import KVOLiteTestSupport
import Testing

/// How subscriptions describe themselves to their subscribers, as Combine's do.
@Suite("Combine compatibility: introspection")
struct IntrospectionTests {
  /// The description of the subscription `publisher` hands a subscriber.
  static func subscription<P: Publisher>(of publisher: P) -> String?
  where P.Output == Int, P.Failure == Never {
    let subscriber = TrackingSubscriber<Int, Never>(onSubscribe: { _ in })
    publisher.subscribe(subscriber)
    defer { subscriber.subscription?.cancel() }
    return subscriber.subscriptionDescription
  }

  @Test("every subscription's description, and an empty mirror where Combine's is empty")
  func descriptions() {
    let subject = PassthroughSubject<Int, Never>()
    #expect(Self.subscription(of: subject) == "PassthroughSubject")
    #expect(Self.subscription(of: CurrentValueSubject<Int, Never>(0)) == "CurrentValueSubject")
    #expect(Self.subscription(of: subject.dropFirst()) == "Drop")
    #expect(Self.subscription(of: subject.removeDuplicates()) == "RemoveDuplicates")
    #expect(Self.subscription(of: subject.handleEvents()) == "HandleEvents")
    #expect(Self.subscription(of: subject.merge(with: subject)) == "Merge")
    #expect(
      Self.subscription(of: subject.combineLatest(subject).map { $0 + $1 }) == "CombineLatest")
    #expect(Self.subscription(of: subject.receive(on: DispatchQueue.main)) == "ReceiveOn")
    #expect(Self.subscription(of: Just(1)) == "Just")
    #expect(Self.subscription(of: Empty<Int, Never>()) == "Empty")
    #expect(Self.subscription(of: subject.map { $0 }) == "PassthroughSubject")
    let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in })
    #expect(sink.playgroundDescription as? String == "Sink")
  }
}
