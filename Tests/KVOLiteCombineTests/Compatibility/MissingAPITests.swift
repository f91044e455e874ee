import Foundation
import KVOLiteCombine
import KVOLiteCombineFoundation
import KVOLiteTestSupport
import Testing

/// API of Combine's that code written against it uses, which KVOLite lacked.
@Suite("Combine compatibility: Future.value, MergeMany, Recording, Void subscribers")
struct MissingAPITests {
  @Test("Future.value awaits the promise; the throwing form throws the failure")
  func futureValue() async throws {
    let ready = Future<Int, Never> { $0(.success(1)) }
    #expect(await ready.value == 1)
    // The promise is thread-safe (Future's contract); it crosses to the queue as such.
    let later = Future<String, Never> { promise in
      let shared = UncheckedSendable(promise)
      DispatchQueue.global().async { shared.value(.success("later")) }
    }
    #expect(await later.value == "later")
    let failing = Future<Int, TestError> { promise in
      let shared = UncheckedSendable(promise)
      DispatchQueue.global().async { shared.value(.failure(TestError("no"))) }
    }
    await #expect(throws: TestError("no")) { try await failing.value }
    let succeeding = Future<Int, TestError> { $0(.success(2)) }
    #expect(try await succeeding.value == 2)
  }

  @Test("MergeMany takes any sequence of publishers")
  func mergeManySequence() {
    let subjects = (0..<3).map { _ in PassthroughSubject<Int, Never>() }
    var received: [Int] = []
    let merged = Publishers.MergeMany(subjects.lazy.map { $0 })
    let cancellable = merged.sink { received.append($0) }
    for (index, subject) in subjects.enumerated() { subject.send(index) }
    #expect(received == [0, 1, 2] && merged.publishers.count == 3)
    cancellable.cancel()
  }

  @Test("Record.Recording.encode(into:) writes what encode(to:) writes")
  func recordingEncodeInto() throws {
    struct Into: Encodable {
      let recording: Record<Int, TestCodableError>.Recording
      func encode(to encoder: any Encoder) throws { try recording.encode(into: encoder) }
    }
    let recording = Record<Int, TestCodableError>.Recording(output: [3, 2], completion: .finished)
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    let direct = String(decoding: try encoder.encode(recording), as: UTF8.self)
    #expect(
      String(decoding: try encoder.encode(Into(recording: recording)), as: UTF8.self) == direct)
    #expect(direct == #"{"completion":{"success":true},"output":[3,2]}"#)
  }

  @Test("a subscriber of Void receives () with receive(); AnyPublisher describes itself")
  func voidAndDescriptions() {
    var count = 0
    let subscriber = AnySubscriber<Void, Never>(receiveValue: {
      count += 1
      return .max(1)
    })
    #expect(subscriber.receive() == .max(1) && count == 1)
    let erased = Just(1).eraseToAnyPublisher()
    #expect(erased.description == "AnyPublisher")
    #expect(erased.playgroundDescription as? String == "AnyPublisher")
  }
}

/// An error that encodes and decodes itself.
struct TestCodableError: Error, Codable, Equatable {}
