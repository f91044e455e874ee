import Dispatch
import Foundation
import KVOLiteCombine
import KVOLiteCombineFoundation
import KVOLiteTestSupport
import Testing

/// The shape of a real Combine sign-up form (issue 50): a request that fails twice and then
/// succeeds, retried with a back-off built on `delay(for:scheduler:)` on a concurrent queue.
/// Before each subscription's events were delivered in order, the success's value was
/// overtaken by its completion, and the form never recovered.
@Suite("Time: a request retried with back-off on a concurrent queue")
struct SignUpRetryTests {
  struct Unavailable: Error {}

  /// A sign-up request whose first two attempts fail: each subscription is one attempt.
  static func request(attempts: Counter) -> AnyPublisher<String, Unavailable> {
    Deferred { () -> AnyPublisher<String, Unavailable> in
      attempts.increment()
      guard attempts.count > 2 else { return Fail(error: Unavailable()).eraseToAnyPublisher() }
      return Just("welcome").setFailureType(to: Unavailable.self).eraseToAnyPublisher()
    }
    .eraseToAnyPublisher()
  }

  /// The form's pipeline: the answer arrives on a background queue; a failure waits a moment
  /// (the back-off) before the attempt is retried, twice at most.
  static func signUp(attempts: Counter) -> AnyPublisher<String, Unavailable> {
    let background = DispatchQueue.global()
    return request(attempts: attempts)
      .delay(for: .milliseconds(1), scheduler: background)
      .catch { error in
        Fail<String, Unavailable>(error: error).delay(for: .milliseconds(1), scheduler: background)
      }
      .retry(2)
      .eraseToAnyPublisher()
  }

  @Test("recovers after two failures, every run: the value, then the completion")
  func recoversEveryRun() {
    let runs = 10_000
    let recorders = (0..<runs).map { _ in EventRecorder<String, Unavailable>() }
    for recorder in recorders { Self.signUp(attempts: Counter()).subscribe(recorder) }
    let waited = EventRecorder.waitForCompletions(of: recorders)
    #expect(waited, "timed out waiting for the answers")
    let wrong = recorders.filter { $0.events != ["welcome", "finished"] }
    let wrongRuns = wrong.count
    #expect(
      wrongRuns == 0, "\(wrong.count) of \(runs) runs wrong, e.g. \(wrong.first?.events ?? [])")
  }

  @Test("with flatMap and a back-off that grows with each attempt, as the sample app writes it")
  func recoversWithFlatMap() {
    let runs = 2_000
    let recorders = (0..<runs).map { _ in EventRecorder<String, Unavailable>() }
    for recorder in recorders {
      let attempts = Counter()
      Just(())
        .setFailureType(to: Unavailable.self)
        .flatMap { _ in
          Self.request(attempts: attempts)
            .catch { error in
              Fail<String, Unavailable>(error: error)
                .delay(for: .milliseconds(attempts.count), scheduler: DispatchQueue.global())
            }
            .retry(2)
        }
        .receive(on: DispatchQueue.global())
        .subscribe(recorder)
    }
    let waited = EventRecorder.waitForCompletions(of: recorders)
    #expect(waited, "timed out waiting for the answers")
    let wrong = recorders.filter { $0.events != ["welcome", "finished"] }
    let wrongRuns = wrong.count
    #expect(
      wrongRuns == 0, "\(wrong.count) of \(runs) runs wrong, e.g. \(wrong.first?.events ?? [])")
  }
}
