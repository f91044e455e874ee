import KVOLiteCombine
import KVOLiteTestSupport
import Testing

/// Combine answers operators on `Result.Publisher` at once, with specialized result types.
@Suite("Result.Publisher's specialized operators")
struct ResultPublisherSpecializedOperatorTests {
  private let success = Result<Int, TestError>.Publisher(3)
  private let failure = Result<Int, TestError>.Publisher(TestError("no"))

  @Test("on a success: the operators' answers, as Result.Publisher or Empty")
  func onSuccess() {
    let mapped: Result<String, TestError>.Publisher = success.map { "\($0)" }
    let tried: Result<Int, any Error>.Publisher = success.tryMap { $0 * 2 }
    let throwing: Result<Int, any Error>.Publisher = success.tryMap { _ in throw TestError("t") }
    let counted: Result<Int, TestError>.Publisher = success.count()
    let collected: Result<[Int], TestError>.Publisher = success.collect()
    let replaced: Result<Int, Never>.Publisher = success.replaceError(with: 0)
    let ignored: Empty<Int, TestError> = success.ignoreOutput()
    #expect(mapped.outcome() == ["3", "finished"])
    #expect(tried.outcome() == ["6", "finished"])
    #expect(throwing.outcome() == ["failure(t)"])
    #expect(counted.outcome() == ["1", "finished"] && collected.outcome() == ["[3]", "finished"])
    #expect(replaced.outcome() == ["3", "finished"] && ignored.outcome() == ["finished"])
    #expect(success.contains(3).outcome() == ["true", "finished"])
    #expect(success.reduce(1, +).outcome() == ["4", "finished"])
    #expect(success.tryScan(0) { _, _ in throw TestError("s") }.outcome() == ["failure(s)"])
    #expect(success.min().result == .success(3) && success.retry(1).result == .success(3))
  }

  @Test("on a failure: it passes through, and closures are not called")
  func onFailure() {
    var calls = 0
    let mapped = failure.map { value -> Int in
      calls += 1
      return value
    }
    #expect(calls == 0)
    #expect(mapped.outcome() == ["failure(no)"])
    #expect(failure.tryMap { $0 }.outcome() == ["failure(no)"])
    #expect(failure.mapError { _ in TestError("mapped") }.outcome() == ["failure(mapped)"])
    #expect(failure.replaceError(with: 7).outcome() == ["7", "finished"])
    #expect(failure.retry(3).outcome() == ["failure(no)"])
  }

  @Test("setFailureType on a publisher that cannot fail")
  func failureType() {
    let typed: Result<Int, TestError>.Publisher = Result<Int, Never>.Publisher(1)
      .setFailureType(to: TestError.self)
    #expect(typed.outcome() == ["1", "finished"])
  }
}
