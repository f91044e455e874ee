import KVOLiteCombine
import KVOLiteTestSupport
import Testing

/// Combine applies most operators on `Publishers.Sequence` to the whole sequence at once, with
/// specialized result types. The annotated `let`s pin the types: each line compiles only if the
/// specialized overload is chosen.
@Suite("Publishers.Sequence's specialized operators")
struct SequencePublisherSpecializedOperatorTests {
  private let numbers = [3, 1, 1, 4, 1, 5].publisher

  @Test("element-wise operators give another sequence publisher, computed when applied")
  func sequences() {
    var calls = 0
    let mapped: Publishers.Sequence<[String], Never> = numbers.map { value in
      calls += 1
      return "\(value)"
    }
    #expect(calls == 6 && mapped.sequence == ["3", "1", "1", "4", "1", "5"])
    let filtered: Publishers.Sequence<[Int], Never> = numbers.filter { $0 > 1 }
    let compact: Publishers.Sequence<[Int], Never> = ["1", "x", "2"].publisher.compactMap {
      Int($0)
    }
    let scanned: Publishers.Sequence<[Int], Never> = numbers.scan(0, +)
    let unique: Publishers.Sequence<[Int], Never> = numbers.removeDuplicates()
    let whilst: Publishers.Sequence<[Int], Never> = numbers.prefix { $0 != 4 }
    #expect(filtered.sequence == [3, 4, 5] && compact.sequence == [1, 2])
    #expect(scanned.sequence == [3, 4, 5, 9, 10, 15] && unique.sequence == [3, 1, 4, 1, 5])
    #expect(whilst.sequence == [3, 1, 1])
    #expect(mapped.outcome() == ["3", "1", "1", "4", "1", "5", "finished"])
  }

  @Test("drop, dropFirst and prefix keep the standard library's lazy wrappers")
  func wrappers() {
    let dropped: Publishers.Sequence<DropWhileSequence<[Int]>, Never> = numbers.drop { $0 < 4 }
    let afterTwo: Publishers.Sequence<DropFirstSequence<[Int]>, Never> = numbers.dropFirst(2)
    let firstTwo: Publishers.Sequence<PrefixSequence<[Int]>, Never> = numbers.prefix(2)
    #expect(Array(dropped.sequence) == [4, 1, 5] && Array(afterTwo.sequence) == [1, 4, 1, 5])
    #expect(Array(firstTwo.sequence) == [3, 1] && Array(numbers.dropFirst().sequence).count == 5)
    #expect(Array(EmptyCollection<Int>().publisher.dropFirst(.max).sequence).isEmpty)
    #expect(firstTwo.outcome() == ["3", "1", "finished"])
  }

  @Test("replaceNil keeps the elements optional; setFailureType and ignoreOutput change types")
  func types() {
    let replaced: Publishers.Sequence<[Int?], Never> = [1, nil, 3].publisher.replaceNil(with: 0)
    #expect(replaced.sequence == [1, 0, 3])
    let typed: Publishers.Sequence<[Int], TestError> = numbers.setFailureType(to: TestError.self)
    let ignored: Empty<Int, Never> = numbers.ignoreOutput()
    #expect(typed.sequence == numbers.sequence && ignored.outcome() == ["finished"])
  }

  @Test("answers from the whole sequence: Result.Publisher, Optional.Publisher or Just")
  func answers() {
    let all: Result<Bool, Never>.Publisher = numbers.allSatisfy { $0 > 0 }
    let any: Result<Bool, Never>.Publisher = numbers.contains { $0 > 4 }
    let four: Result<Bool, Never>.Publisher = numbers.contains(4)
    let collected: Result<[Int], Never>.Publisher = numbers.collect()
    let sum: Result<Int, Never>.Publisher = numbers.reduce(0, +)
    let least: Optional<Int>.Publisher = numbers.min()
    let greatest: Optional<Int>.Publisher = numbers.max(by: <)
    let firstBig: Optional<Int>.Publisher = numbers.first { $0 > 3 }
    let lastOne: Optional<Int>.Publisher = numbers.last { $0 == 1 }
    let counted: Just<Int> = numbers.count()
    #expect(all.result == .success(true) && any.result == .success(true))
    #expect(four.result == .success(true) && collected.result == .success(numbers.sequence))
    #expect(sum.result == .success(15) && least.output == 1 && greatest.output == 5)
    #expect(firstBig.output == 4 && lastOne.output == 1 && counted.output == 6)
    #expect(numbers.first().output == 3 && numbers.last().output == 5)
    #expect([Int]().publisher.min().output == nil && [Int]().publisher.first().output == nil)
    #expect(
      sum.outcome() == ["15", "finished"] && [Int]().publisher.max().outcome() == ["finished"])
  }

  @Test("count is a Just only where it cannot fail and the collection counts at once")
  func counts() {
    let failing: Result<Int, TestError>.Publisher = numbers.setFailureType(to: TestError.self)
      .count()
    let set: Result<Int, Never>.Publisher = Set([1, 2, 2]).publisher.count()
    let everything: Just<Int> = (0..<Int.max).publisher.count()
    #expect(failing.result == .success(6) && set.result == .success(2))
    #expect(everything.output == .max)
  }

  @Test("output(at:) gives no value outside the indexes; output(in:) slices")
  func output() {
    let third: Optional<Int>.Publisher = numbers.output(at: 2)
    #expect(third.output == 1)
    #expect(numbers.output(at: 6).output == nil && numbers.output(at: -1).output == nil)
    #expect(numbers.output(at: .max).outcome() == ["finished"])
    let middle: Publishers.Sequence<[Int], Never> = numbers.output(in: 1..<4)
    #expect(middle.sequence == [1, 1, 4])
  }

  @Test("the try forms fail with the error thrown, and stop calling at the answer")
  func tryForms() {
    var calls = 0
    let satisfied: Result<Bool, any Error>.Publisher = numbers.tryAllSatisfy { value in
      calls += 1
      if value == 4 { throw TestError("four") }
      return true
    }
    #expect(calls == 4 && satisfied.outcome() == ["failure(four)"])
    calls = 0
    let found = numbers.tryContains { value in
      calls += 1
      return value == 1
    }
    #expect(calls == 2 && found.outcome() == ["true", "finished"])
    let reduced: Result<Int, any Error>.Publisher = numbers.tryReduce(0) { total, value in
      if value == 5 { throw TestError("five") }
      return total + value
    }
    #expect(reduced.outcome() == ["failure(five)"])
    #expect(numbers.tryReduce(0, +).outcome() == ["15", "finished"])
  }

  @Test("append and prepend join the collections, keeping their type")
  func joining() {
    let appended: Publishers.Sequence<[Int], Never> = [2, 3].publisher.append(4, 5)
    let prepended: Publishers.Sequence<[Int], Never> = [2, 3].publisher.prepend([0, 1])
    let text: Publishers.Sequence<String, Never> = "bc".publisher.prepend("a").append("d")
    #expect(appended.sequence == [2, 3, 4, 5] && prepended.sequence == [0, 1, 2, 3])
    #expect(text.sequence == "abcd")
    #expect([2].publisher.append([3].publisher).prepend([1].publisher).sequence == [1, 2, 3])
  }

  @Test("a negative count traps when applied, as the standard library's dropFirst and prefix")
  func traps() async {
    await #expect(processExitsWith: .failure) { _ = [1].publisher.dropFirst(-1) }
    await #expect(processExitsWith: .failure) { _ = [1].publisher.prefix(-1) }
    await #expect(processExitsWith: .failure) { _ = [1].publisher.output(in: 0..<2) }
  }

  @Test("after a generic operator, the lazy element-by-element operators apply again")
  func genericAfterwards() {
    var calls = 0
    let lazy = (1...).publisher.print("never printed", to: NullStream()).map { value -> Int in
      calls += 1
      return value * 2
    }
    #expect(calls == 0)
    var received: [Int] = []
    let cancellable = lazy.prefix(3).sink { received.append($0) }
    // Combine's prefix (an `Output`) ends at the value after its range: four are mapped.
    #expect(received == [2, 4, 6] && calls == 4)
    cancellable.cancel()
  }
}

/// A text stream that keeps nothing.
private struct NullStream: TextOutputStream {
  mutating func write(_ string: String) {}
}
