import Foundation
import KVOLiteCombine
import KVOLiteCombineFoundation
import KVOLiteTestSupport
import Testing

/// `drop(untilOutputFrom:)`, `prefix(untilOutputFrom:)` and `Record`.
@Suite("Combine compatibility: drop(untilOutputFrom:), prefix(untilOutputFrom:), Record")
struct TriggerAndRecordTests {
  @Test(
    "drop(untilOutputFrom:) republishes once the other publisher publishes, and stops listening to it"
  )
  func dropUntil() {
    let upstream = PassthroughSubject<Int, Never>()
    let trigger = PassthroughSubject<Void, Never>()
    let subscriber = TrackingSubscriber<Int, Never>()
    upstream.drop(untilOutputFrom: trigger).subscribe(subscriber)
    #expect(subscriber.subscriptionDescription == "DropUntilOutput")
    upstream.send(1)
    trigger.send()
    upstream.send(2)
    trigger.send(completion: .finished)
    upstream.send(3)
    #expect(subscriber.events == [.subscription, .value(2), .value(3)])
    let ended = TrackingSubscriber<Int, Never>()
    upstream.drop(untilOutputFrom: Empty<Void, Never>()).subscribe(ended)
    #expect(ended.events == [.subscription, .finished])
  }

  @Test(
    "prefix(untilOutputFrom:) finishes at the other publisher's first value, cancelling upstream")
  func prefixUntil() {
    let history = Log<Event<Int>>()
    let upstream = CustomPublisher<Int, Never>(history: history)
    let trigger = PassthroughSubject<Void, Never>()
    let subscriber = TrackingSubscriber<Int, Never>(history: history)
    upstream.prefix(untilOutputFrom: trigger).subscribe(subscriber)
    // Like Combine's, the subscription does not describe itself: its type name shows.
    #expect(subscriber.subscriptionDescription?.contains("PrefixUntilOutput") == true)
    upstream.send(1)
    trigger.send()
    #expect(upstream.send(2) == .none)
    #expect(
      history.all == [.subscription, .requested(.unlimited), .value(1), .cancelled, .finished])
  }

  @Test("Record replays its values and completion to each subscriber, within demand; it is Codable")
  func record() throws {
    let record = Record<Int, TestError> { recording in
      recording.receive(1)
      recording.receive(2)
      recording.receive(completion: .failure(TestError()))
    }
    for _ in 0..<2 {
      let subscriber = TrackingSubscriber<Int, TestError>(onSubscribe: { $0.request(.max(1)) })
      record.subscribe(subscriber)
      #expect(subscriber.events == [.subscription, .value(1)])
      subscriber.subscription?.request(.max(5))
      #expect(subscriber.events == [.subscription, .value(1), .value(2), .failed(TestError())])
    }
    let finished = Record<String, Never>(output: ["a"], completion: .finished)
    #expect(finished.collect().sinkValues() == [["a"]])
    let data = try JSONEncoder().encode(finished)
    let decoded = try JSONDecoder().decode(Record<String, Never>.self, from: data)
    #expect(decoded.recording.output == ["a"] && decoded.recording.completion == .finished)
  }

  @Test("a recording takes no value after its completion")
  func recordingTraps() async {
    await #expect(processExitsWith: .failure) {
      var recording = Record<Int, Never>.Recording()
      recording.receive(completion: .finished)
      recording.receive(1)
    }
  }
}
