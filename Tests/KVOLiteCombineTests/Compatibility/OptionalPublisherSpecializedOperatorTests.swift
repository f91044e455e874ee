import KVOLiteCombine
import KVOLiteTestSupport
import Testing

/// Combine answers operators on `Optional.Publisher` at once, with specialized result types.
@Suite("Optional.Publisher's specialized operators")
struct OptionalPublisherSpecializedOperatorTests {
  @Test("with a value: the operators' answers, as Optional.Publisher, Just or Empty")
  func withValue() {
    let some = Optional(4).publisher
    let mapped: Optional<String>.Publisher = some.map { "\($0)" }
    let counted: Optional<Int>.Publisher = some.count()
    let collected: Optional<[Int]>.Publisher = some.collect()
    let replaced: Just<Int> = some.replaceEmpty(with: 0)
    let ignored: Empty<Int, Never> = some.ignoreOutput()
    #expect(mapped.outcome() == ["4", "finished"])
    #expect(counted.outcome() == ["1", "finished"])
    #expect(collected.outcome() == ["[4]", "finished"])
    #expect(replaced.output == 4 && ignored.outcome() == ["finished"])
    #expect(some.filter { $0 > 3 }.outcome() == ["4", "finished"])
    #expect(some.compactMap { $0 > 5 ? $0 : nil }.outcome() == ["finished"])
    #expect(some.contains(4).outcome() == ["true", "finished"])
    #expect(some.allSatisfy { $0 < 0 }.outcome() == ["false", "finished"])
    #expect(some.reduce(1, +).outcome() == ["5", "finished"])
    #expect(some.dropFirst().outcome() == ["finished"])
    #expect(some.dropFirst(0).outcome() == ["4", "finished"])
    #expect(some.output(in: 0..<1).outcome() == ["4", "finished"])
    #expect(some.output(in: 0..<0).outcome() == ["finished"])
    #expect(some.prefix(0).outcome() == ["finished"])
    #expect(some.min().output == 4 && some.first().output == 4 && some.retry(2).output == 4)
  }

  @Test("without a value: no value, except collect's empty array and replaceEmpty's Just")
  func withoutValue() {
    let none = Optional<Int>.none.publisher
    var calls = 0
    #expect(
      none.map { value -> Int in
        calls += 1
        return value
      }.outcome() == ["finished"])
    #expect(calls == 0)
    #expect(none.count().outcome() == ["finished"])
    #expect(none.collect().outcome() == ["[]", "finished"])
    #expect(none.contains(1).outcome() == ["finished"])
    #expect(none.replaceEmpty(with: 9).output == 9)
  }

  @Test("closures run when the operator is applied")
  func eager() {
    var calls = 0
    let filtered = Optional(1).publisher.filter { _ in
      calls += 1
      return true
    }
    #expect(calls == 1)
    _ = filtered.outcome()
    #expect(calls == 1)
  }

  @Test("a negative count, index or lower bound traps, as in Combine")
  func traps() async {
    await #expect(processExitsWith: .failure) { _ = Optional(1).publisher.dropFirst(-1) }
    await #expect(processExitsWith: .failure) { _ = Optional(1).publisher.output(at: -1) }
    await #expect(processExitsWith: .failure) { _ = Optional(1).publisher.prefix(-1) }
  }

  @Test("output(in:) traps on an upper bound of Int.max - 1 or more, as in Combine")
  func outputInRangeUpperBound() async {
    #expect(Optional(12).publisher.output(in: 0..<(Int.max - 2)).output == 12)
    #expect(Optional(12).publisher.output(in: ...0).output == 12)
    await #expect(processExitsWith: .failure) {
      _ = Optional(12).publisher.output(in: 0..<(Int.max - 1))
    }
    await #expect(processExitsWith: .failure) { _ = Optional(12).publisher.output(in: 0...) }
  }
}
