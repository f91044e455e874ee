import KVOLiteCombine
import KVOLiteTestSupport
import Testing

private struct Roll: Equatable, Sendable {
  let die = 6
  let value: Int
  var doubled: Int { value * 2 }
}

/// `map` with key paths: Combine's `MapKeyPath` publishers, which pass upstream's subscription
/// straight downstream.
@Suite("Combine compatibility: map with key paths")
struct MapKeyPathTests {
  @Test("one key path: the value there, passed through as ValueForKey")
  func oneKeyPath() {
    let history = Log<Event<Int>>()
    let upstream = CustomPublisher<Roll, TestError>(history: Log())
    let subscriber = TrackingSubscriber<Int, TestError>(
      history: history, onSubscribe: { $0.request(.max(2)) }, onValue: { _ in .max(1) })
    let mapped: Publishers.MapKeyPath<CustomPublisher<Roll, TestError>, Int> = upstream.map(
      \.value)
    mapped.subscribe(subscriber)
    #expect(upstream.subscriberDescription == "ValueForKey")
    #expect(upstream.subscriberMirror == [#"keyPath: \Roll.value"#])
    #expect(subscriber.subscription as AnyObject === upstream.subscription)  // passed through
    #expect(upstream.send(Roll(value: 3)) == .max(1))
    upstream.send(completion: .failure(TestError()))
    #expect(history.all == [.subscription, .value(3), .failed(TestError())])
  }

  @Test("two and three key paths: tuples, passed through as ValueForKeys")
  func severalKeyPaths() {
    let subject = PassthroughSubject<Roll, Never>()
    var pairs: [String] = []
    var triples: [String] = []
    let two: Publishers.MapKeyPath2<PassthroughSubject<Roll, Never>, Int, Int> = subject.map(
      \.value, \.doubled)
    let three = subject.map(\.die, \.value, \.doubled)
    let cancellables = [
      two.sink { pairs.append("\($0.0) \($0.1)") },
      three.sink { triples.append("\($0.0) \($0.1) \($0.2)") },
    ]
    subject.send(Roll(value: 2))
    #expect(pairs == ["2 4"] && triples == ["6 2 4"])
    let upstream = CustomPublisher<Roll, Never>(history: Log())
    _ = upstream.map(\.value, \.die).sink { _ in }
    #expect(upstream.subscriberDescription == "ValueForKeys")
    #expect(upstream.subscriberMirror == [#"keyPath0: \Roll.value"#, #"keyPath1: \Roll.die"#])
    _ = cancellables
  }
}
