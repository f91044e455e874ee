import Foundation
import KVOLiteCombine
import KVOLiteCombineFoundation
import KVOLiteCombineNetworking
import KVOLiteTestSupport
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A data task that records `resume()` and `cancel()` instead of loading.
final class RecordingDataTask: URLSessionDataTask, @unchecked Sendable {
  let calls = Log<String>()
  override func resume() { calls.append("resume") }
  override func cancel() { calls.append("cancel") }
}

/// A session whose data tasks are one ``RecordingDataTask``, completed by the test.
final class RecordingSession: URLSession, @unchecked Sendable {
  let task = RecordingDataTask()
  let made = Log<URLRequest>()
  private let handlers = Locked<[@Sendable (Data?, URLResponse?, (any Error)?) -> Void]>([])

  override func dataTask(
    with request: URLRequest,
    completionHandler: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void
  ) -> URLSessionDataTask {
    made.append(request)
    handlers.withLock { $0.append(completionHandler) }
    return task
  }

  /// Completes every task made so far with `data`, `response` and `error`.
  func complete(_ data: Data?, _ response: URLResponse?, _ error: (any Error)?) {
    for handler in handlers.withLock({ $0 }) { handler(data, response, error) }
  }
}

/// `URLSession.DataTaskPublisher`, as Foundation's (OpenCombine's compatibility tests record
/// it), against a session that records what the publisher asks of it.
@Suite("Foundation: URLSession.DataTaskPublisher")
struct DataTaskPublisherTests {
  typealias Output = URLSession.DataTaskPublisher.Output
  static let request = URLRequest(url: URL(string: "https://example.com/books")!)
  static let response = URLResponse(
    url: URL(string: "https://example.com/books")!, mimeType: "application/json",
    expectedContentLength: 2, textEncodingName: "utf-8")

  /// What a subscriber asking for one value sees when the session completes with the arguments
  /// (three times: only the first counts).
  static func outcome(_ data: Data?, _ response: URLResponse?, _ error: (any Error)?)
    -> [String]
  {
    let session = RecordingSession(configuration: .default)
    var events: [String] = []
    let cancellable = session.dataTaskPublisher(for: Self.request).sink(
      receiveCompletion: { events.append("\($0)") },
      receiveValue: { events.append("\($0.data.count) bytes") })
    for _ in 0..<3 { session.complete(data, response, error) }
    withExtendedLifetime(cancellable) {}
    return events
  }

  @Test("no response is URLError(.unknown); so is an error that is not a URLError")
  func results() {
    let unknown = "failure(\(URLError(.unknown)))"
    let timedOut = URLError(.timedOut)
    #expect(Self.outcome(nil, nil, nil) == [unknown])
    #expect(Self.outcome(Data("[]".utf8), nil, nil) == [unknown])
    #expect(Self.outcome(nil, Self.response, nil) == ["0 bytes", "finished"])
    #expect(Self.outcome(Data("[]".utf8), Self.response, nil) == ["2 bytes", "finished"])
    #expect(Self.outcome(nil, Self.response, timedOut) == ["failure(\(timedOut))"])
    #expect(Self.outcome(nil, nil, TestError()) == [unknown])
  }

  @Test("the task is made at the first request and resumed at every request")
  func requests() {
    let session = RecordingSession(configuration: .default)
    let subscriber = TrackingSubscriber<Int, URLError>(onSubscribe: { _ in })
    session.dataTaskPublisher(for: Self.request).map(\.data.count).subscribe(subscriber)
    session.complete(Data(), Self.response, nil)
    #expect(session.made.all == [] && session.task.calls.all == [])
    subscriber.subscription?.request(.max(2))
    subscriber.subscription?.request(.max(1))
    #expect(session.made.all == [Self.request])
    #expect(session.task.calls.all == ["resume", "resume"])
    subscriber.subscription?.cancel()
    subscriber.subscription?.request(.max(1))
    session.complete(Data(), Self.response, nil)
    #expect(session.task.calls.all == ["resume", "resume", "cancel"])
    #expect(subscriber.events == [.subscription])
  }

  @Test("a request for .none traps, as in Foundation")
  func zeroDemand() async {
    await #expect(processExitsWith: .failure) {
      let subscriber = TrackingSubscriber<Int, URLError>(onSubscribe: { _ in })
      RecordingSession(configuration: .default).dataTaskPublisher(for: Self.request).map(
        \.data.count
      )
      .subscribe(subscriber)
      subscriber.subscription?.request(.none)
    }
  }
}
