import Foundation
import KVOLiteCombine
import KVOLiteCombineFoundation
import KVOLiteCombineNetworking
import KVOLiteTestSupport
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Foundation's publishers on Linux: decode/encode, NotificationCenter, Timer, URLSession.
@Suite("Foundation's publishers: decode, encode, NotificationCenter, Timer, dataTaskPublisher")
struct FoundationPublisherTests {
  struct Item: Codable, Equatable { let name: String }

  /// Waits (on the events, with a generous limit) until `done` says so.
  static func wait(until done: () -> Bool) {
    // A timer in the run loop makes `run(mode:before:)` block until an event instead of
    // returning at once, so that waiting threads do not spin and starve the network threads.
    let keepAlive = Timer(timeInterval: 0.01, repeats: true) { _ in }
    RunLoop.current.add(keepAlive, forMode: .default)
    defer { keepAlive.invalidate() }
    let deadline = Date().addingTimeInterval(30)
    while !done(), Date() < deadline {
      _ = RunLoop.current.run(mode: .default, before: Date().addingTimeInterval(0.01))
    }
  }

  @Test("decode and encode with JSON and property-list coders; a decoding error fails and cancels")
  func coding() throws {
    let encoded = [Item(name: "a")].publisher.encode(encoder: JSONEncoder())
    let round: [[Item]] = encoded.decode(type: Item.self, decoder: JSONDecoder()).collect()
      .replaceError(with: []).sinkValues()
    #expect(round == [[Item(name: "a")]])
    let plist = [Item(name: "p")].publisher.encode(encoder: PropertyListEncoder())
      .decode(type: Item.self, decoder: PropertyListDecoder()).collect().replaceError(with: [])
      .sinkValues()
    #expect(plist == [[Item(name: "p")]])
    let history = Log<Event<Item>>()
    let upstream = CustomPublisher<Data, Never>(history: Log())
    let subscriber = TrackingSubscriber<Item, any Error>(history: history)
    upstream.decode(type: Item.self, decoder: JSONDecoder()).subscribe(subscriber)
    upstream.send(Data("{\"name\":\"x\"}".utf8))
    upstream.send(Data("nope".utf8))
    #expect(history.all.count == 3 && history.all[1] == .value(Item(name: "x")))
    #expect(subscriber.subscriptionDescription == "Decode")
  }

  @Test("NotificationCenter's publisher delivers posts within demand, and stops when cancelled")
  func notifications() {
    let center = NotificationCenter()
    let name = Notification.Name("KVOLiteTest")
    let sender = NSObject()
    var received: [String] = []
    // As in Foundation, the center refers to the subscription weakly: the subscriber keeps it.
    var subscription: (any Subscription)?
    let subscriber = AnySubscriber<Notification, Never>(
      receiveSubscription: {
        subscription = $0
        $0.request(.max(2))
      },
      receiveValue: {
        received.append(($0.userInfo?["n"] as? String) ?? "?")
        return .none
      })
    let publisher = center.publisher(for: name, object: sender)
    publisher.subscribe(subscriber)
    center.post(name: name, object: sender, userInfo: ["n": "1"])
    center.post(name: name, object: NSObject(), userInfo: ["n": "other"])
    center.post(name: name, object: sender, userInfo: ["n": "2"])
    center.post(name: name, object: sender, userInfo: ["n": "3"])
    #expect(received == ["1", "2"])
    subscription?.cancel()
    var more: [Int] = []
    let cancellable = center.publisher(for: name).sink { _ in more.append(1) }
    center.post(name: name, object: nil)
    cancellable.cancel()
    center.post(name: name, object: nil)
    #expect(more == [1])
  }

  @Test(
    "Timer.publish fires on its run loop once connected, and stops when the connection is cancelled"
  )
  func timer() {
    var dates: [Date] = []
    let connectable = Timer.publish(every: 0.01, on: .current, in: .default)
    let cancellable = connectable.sink { dates.append($0) }
    let connection = connectable.connect()
    Self.wait { dates.count >= 3 }
    connection.cancel()
    let count = dates.count
    _ = RunLoop.current.run(mode: .default, before: Date().addingTimeInterval(0.05))
    #expect(count >= 3 && dates.count == count)
    #expect(zip(dates, dates.dropFirst()).allSatisfy { $0 <= $1 })
    _ = cancellable
  }

  @Test(
    "dataTaskPublisher: data and response, an HTTP error status, a refused connection, a cancelled request"
  )
  func dataTask() throws {
    let arrived = Locked<[String]>([])
    let server = try LoopbackHTTPServer(
      onRequest: { line in arrived.withLock { $0.append(line) } },
      respond: { line in
        switch line {
        case "GET /items HTTP/1.1": LoopbackHTTPServer.response("200 OK", #"[{"name":"net"}]"#)
        case "GET /hang HTTP/1.1": nil
        default: LoopbackHTTPServer.response("404 Not Found", "")
        }
      })
    defer { server.stop() }
    let session = URLSession(configuration: .ephemeral)
    func load<P: Publisher>(_ publisher: P, describe: @escaping (P.Output) -> String) -> [String] {
      let events = Locked<[String]>([])
      let cancellable = publisher.sink(
        receiveCompletion: { completion in events.withLock { $0.append("\(completion)") } },
        receiveValue: { value in events.withLock { $0.append(describe(value)) } })
      Self.wait {
        events.withLock {
          $0.last.map { $0.hasPrefix("finished") || $0.hasPrefix("failure") } ?? false
        }
      }
      _ = cancellable
      return events.withLock { $0 }
    }
    let items = session.dataTaskPublisher(for: server.url("/items")).map(\.data)
      .decode(type: [Item].self, decoder: JSONDecoder())
    #expect(load(items) { $0.map(\.name).joined() } == ["net", "finished"])
    let missing = session.dataTaskPublisher(for: URLRequest(url: server.url("/missing")))
    #expect(
      load(missing) { "\(($0.response as? HTTPURLResponse)?.statusCode ?? 0) \($0.data.count)" }
        == ["404 0", "finished"])

    let closed = try LoopbackHTTPServer { _ in nil }
    closed.stop()
    let refused = load(session.dataTaskPublisher(for: closed.url("/x"))) { _ in "value" }
    #expect(refused.count == 1 && refused[0].hasPrefix("failure"))

    let hanging = Locked<[String]>([])
    let cancellable = session.dataTaskPublisher(for: server.url("/hang"))
      .sink(
        receiveCompletion: { completion in hanging.withLock { $0.append("\(completion)") } },
        receiveValue: { _ in hanging.withLock { $0.append("value") } })
    Self.wait { arrived.withLock { $0.contains("GET /hang HTTP/1.1") } }
    cancellable.cancel()
    // A later load on the same session completes after the cancelled one has called back.
    #expect(load(items) { $0.map(\.name).joined() } == ["net", "finished"])
    #expect(hanging.withLock { $0 } == [])
  }
}
