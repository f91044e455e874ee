import KVOLiteCombine
import KVOLiteTestSupport
import Testing

private struct Boom: Error, CustomStringConvertible {
  var description: String { "boom" }
}

/// Combine answers operators on `Just` at once, with specialized result types; code that names
/// those types must compile, and closures run when the operator is applied.
@Suite("Just's specialized operators")
struct JustSpecializedOperatorTests {
  @Test("transforming operators return Just, Optional.Publisher or Result.Publisher")
  func resultTypes() {
    let just = Just(3)
    let mapped: Just<String> = just.map { "\($0)" }
    let kept: Optional<Int>.Publisher = just.filter { $0 > 2 }
    let dropped: Optional<Int>.Publisher = just.filter { $0 > 3 }
    let compact: Optional<String>.Publisher = just.compactMap { $0 > 3 ? "big" : nil }
    let tried: Result<Int, any Error>.Publisher = just.tryMap { $0 * 2 }
    let failed: Result<Int, any Error>.Publisher = just.tryMap { _ in throw Boom() }
    #expect(mapped.outcome() == ["3", "finished"])
    #expect(kept.outcome() == ["3", "finished"])
    #expect(dropped.outcome() == ["finished"])
    #expect(compact.outcome() == ["finished"])
    #expect(tried.outcome() == ["6", "finished"])
    #expect(failed.outcome() == ["failure(boom)"])
  }

  @Test("closures run when the operator is applied, not at subscription")
  func eagerClosures() {
    var calls = 0
    let mapped = Just(1).map { value -> Int in
      calls += 1
      return value + 1
    }
    #expect(calls == 1)
    #expect(mapped.output == 2)
    _ = mapped.outcome()
    _ = mapped.outcome()
    #expect(calls == 1)
  }

  @Test("reducing operators: answers from the one value")
  func reducing() {
    let just = Just(5)
    let count: Just<Int> = just.count()
    let collected: Just<[Int]> = just.collect()
    let minimum: Just<Int> = just.min()
    let maximum: Just<Int> = just.max(by: { _, _ in
      Issue.record("not called")
      return true
    })
    let contains: Just<Bool> = just.contains(4)
    let satisfied: Just<Bool> = just.allSatisfy { $0 > 4 }
    let reduced: Result<Int, Never>.Publisher = just.reduce(10, +)
    let scanned: Result<String, Never>.Publisher = just.scan("") { $0 + "\($1)" }
    let tryReduced: Result<Int, any Error>.Publisher = just.tryReduce(0) { _, _ in throw Boom() }
    #expect(count.output == 1 && collected.output == [5])
    #expect(minimum.output == 5 && maximum.output == 5)
    #expect(contains.output == false && satisfied.output == true)
    #expect(reduced.outcome() == ["15", "finished"])
    #expect(scanned.outcome() == ["5", "finished"])
    #expect(tryReduced.outcome() == ["failure(boom)"])
    #expect(just.contains(where: { $0 == 5 }).output)
    #expect(just.tryContains(where: { _ in throw Boom() }).outcome() == ["failure(boom)"])
    #expect(just.tryAllSatisfy { $0 == 5 }.outcome() == ["true", "finished"])
  }

  @Test("filtering operators: the value or nothing")
  func filtering() {
    let just = Just("a")
    #expect(just.dropFirst().outcome() == ["finished"])
    #expect(just.dropFirst(0).outcome() == ["a", "finished"])
    #expect(just.drop(while: { $0 == "a" }).outcome() == ["finished"])
    #expect(just.prefix(1).outcome() == ["a", "finished"])
    #expect(just.prefix(0).outcome() == ["finished"])
    #expect(just.prefix(while: { $0 == "b" }).outcome() == ["finished"])
    #expect(just.output(at: 0).outcome() == ["a", "finished"])
    #expect(just.output(at: 1).outcome() == ["finished"])
    #expect(just.output(in: 0..<3).outcome() == ["a", "finished"])
    #expect(just.output(in: 1...).outcome() == ["finished"])
    #expect(just.first(where: { $0 == "a" }).outcome() == ["a", "finished"])
    #expect(just.last(where: { $0 == "b" }).outcome() == ["finished"])
    let first: Just<String> = just.first()
    let last: Just<String> = just.last()
    #expect(first == just && last == just)
    let ignored: Empty<String, Never> = just.ignoreOutput()
    #expect(ignored.outcome() == ["finished"])
  }

  @Test("error operators: Just never fails, so they change only the failure type")
  func errors() {
    let just = Just(1)
    let typed: Result<Int, Boom>.Publisher = just.setFailureType(to: Boom.self)
    let mapped: Result<Int, Boom>.Publisher = just.mapError { _ -> Boom in }
    let replaced: Just<Int> = just.replaceError(with: 0)
    let retried: Just<Int> = just.retry(3)
    let nonEmpty: Just<Int> = just.replaceEmpty(with: 0)
    let unique: Just<Int> = just.removeDuplicates()
    #expect(typed.outcome() == ["1", "finished"] && mapped.outcome() == ["1", "finished"])
    #expect(replaced == just && retried == just && nonEmpty == just && unique == just)
    #expect(just.tryRemoveDuplicates(by: { _, _ in throw Boom() }).outcome() == ["failure(boom)"])
    #expect(just.tryRemoveDuplicates(by: ==).outcome() == ["1", "finished"])
  }

  @Test("prepend and append make a sequence publisher")
  func sequences() {
    let prepended: Publishers.Sequence<[Int], Never> = Just(3).prepend(1, 2)
    let appended: Publishers.Sequence<[Int], Never> = Just(1).append([2, 3])
    #expect(prepended.outcome() == ["1", "2", "3", "finished"])
    #expect(appended.outcome() == ["1", "2", "3", "finished"])
    #expect(Just(2).prepend([1]).append(3).outcome() == ["1", "2", "3", "finished"])
  }

  @Test(
    "prepend and append of a sequence ask it for its underestimatedCount (twice, once) and iterate it, never ask its count"
  )
  func sequenceCalls() {
    let before = RecordingCollection([1, 2])
    #expect(Just(3).prepend(before).sequence == [1, 2, 3])
    #expect(
      before.calls.all == [
        "init(_:)", "underestimatedCount", "underestimatedCount", "makeIterator",
      ]
    )
    let after = RecordingCollection([2, 3])
    #expect(Just(1).append(after).sequence == [1, 2, 3])
    #expect(after.calls.all == ["init(_:)", "underestimatedCount", "makeIterator"])
  }

  @Test("a negative count or index traps, as in Combine")
  func traps() async {
    await #expect(processExitsWith: .failure) { _ = Just(1).dropFirst(-1) }
    await #expect(processExitsWith: .failure) { _ = Just(1).prefix(-1) }
    await #expect(processExitsWith: .failure) { _ = Just(1).output(at: -1) }
  }
}
