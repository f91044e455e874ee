import KVOLiteLocking

// Combine's specialized operators on `Just`: an operator whose result is known from the one
// value is answered at once, when the operator is applied (closures run then, not at
// subscription), by a `Just`, an `Optional.Publisher`, a `Result.Publisher`, an `Empty` or a
// `Publishers.Sequence`, as in Combine. Code that names these result types compiles unchanged.

extension Just where Output: Comparable {
  /// This publisher: the least of one value is that value.
  public func min() -> Just<Output> { self }

  /// This publisher: the greatest of one value is that value.
  public func max() -> Just<Output> { self }
}

extension Just where Output: Equatable {
  /// A `Just` of whether the value equals `output`.
  public func contains(_ output: Output) -> Just<Bool> { Just<Bool>(self.output == output) }

  /// This publisher: one value has no duplicates.
  public func removeDuplicates() -> Just<Output> { self }
}

extension Just {
  /// A `Just` of whether the value satisfies `predicate`, which runs now.
  public func allSatisfy(_ predicate: (Output) -> Bool) -> Just<Bool> {
    Just<Bool>(predicate(output))
  }

  /// The result of `predicate` on the value, run now: `true`, `false` or the error it threw.
  public func tryAllSatisfy(_ predicate: (Output) throws -> Bool)
    -> Result<Bool, any Error>.Publisher
  {
    Result<Bool, any Error>.Publisher(Result { try predicate(output) })
  }

  /// A `Just` of whether the value satisfies `predicate`, which runs now.
  public func contains(where predicate: (Output) -> Bool) -> Just<Bool> {
    Just<Bool>(predicate(output))
  }

  /// The result of `predicate` on the value, run now: `true`, `false` or the error it threw.
  public func tryContains(where predicate: (Output) throws -> Bool)
    -> Result<Bool, any Error>.Publisher
  {
    Result<Bool, any Error>.Publisher(Result { try predicate(output) })
  }

  /// A `Just` of an array holding the value.
  public func collect() -> Just<[Output]> { Just<[Output]>([output]) }

  /// This publisher; `areInIncreasingOrder` is not called.
  public func min(by areInIncreasingOrder: (Output, Output) -> Bool) -> Just<Output> { self }

  /// This publisher; `areInIncreasingOrder` is not called.
  public func max(by areInIncreasingOrder: (Output, Output) -> Bool) -> Just<Output> { self }

  /// A `Just` of 1.
  public func count() -> Just<Int> { Just<Int>(1) }

  /// The value if `count` is 0, else nothing. A negative `count` traps, as in Combine.
  public func dropFirst(_ count: Int = 1) -> Optional<Output>.Publisher {
    require(count >= 0, "count must not be negative")
    return Optional<Output>.Publisher(count > 0 ? nil : output)
  }

  /// The value unless `predicate`, which runs now, is true of it.
  public func drop(while predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
    Optional<Output>.Publisher(predicate(output) ? nil : output)
  }

  /// This publisher: its value is the first.
  public func first() -> Just<Output> { self }

  /// The value if `predicate`, which runs now, is true of it.
  public func first(where predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
    Optional<Output>.Publisher(predicate(output) ? output : nil)
  }

  /// This publisher: its value is the last.
  public func last() -> Just<Output> { self }

  /// The value if `predicate`, which runs now, is true of it.
  public func last(where predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
    Optional<Output>.Publisher(predicate(output) ? output : nil)
  }

  /// A publisher that finishes without a value.
  public func ignoreOutput() -> Empty<Output, Never> { Empty<Output, Never>() }

  /// A `Just` of the transformed value; `transform` runs now.
  public func map<T>(_ transform: (Output) -> T) -> Just<T> { Just<T>(transform(output)) }

  /// The transformed value, or the error `transform` threw; `transform` runs now.
  public func tryMap<T>(_ transform: (Output) throws -> T) -> Result<T, any Error>.Publisher {
    Result<T, any Error>.Publisher(Result { try transform(output) })
  }

  /// The transformed value, if `transform` (which runs now) returns one.
  public func compactMap<T>(_ transform: (Output) -> T?) -> Optional<T>.Publisher {
    Optional<T>.Publisher(transform(output))
  }

  /// The value if `isIncluded`, which runs now, is true of it.
  public func filter(_ isIncluded: (Output) -> Bool) -> Optional<Output>.Publisher {
    Optional<Output>.Publisher(isIncluded(output) ? output : nil)
  }

  /// The value if `index` is 0. A negative index traps, as in Combine.
  public func output(at index: Int) -> Optional<Output>.Publisher {
    require(index >= 0, "index must not be negative")
    return Optional<Output>.Publisher(index == 0 ? output : nil)
  }

  /// The value if `range` starts at 0 (Combine checks the lower bound only).
  public func output<R: RangeExpression>(in range: R) -> Optional<Output>.Publisher
  where R.Bound == Int {
    Optional<Output>.Publisher(range.relative(to: 0..<Int.max).lowerBound == 0 ? output : nil)
  }

  /// The value unless `maxLength` is 0. A negative `maxLength` traps, as in Combine.
  public func prefix(_ maxLength: Int) -> Optional<Output>.Publisher {
    require(maxLength >= 0, "maxLength must not be negative")
    return Optional<Output>.Publisher(maxLength > 0 ? output : nil)
  }

  /// The value if `predicate`, which runs now, is true of it.
  public func prefix(while predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
    Optional<Output>.Publisher(predicate(output) ? output : nil)
  }

  /// The value, as a publisher whose failure type is `failureType`.
  public func setFailureType<E: Error>(to failureType: E.Type) -> Result<Output, E>.Publisher {
    Result<Output, E>.Publisher(output)
  }

  /// The value, as a publisher whose failure type is `E`; `transform` is never called.
  public func mapError<E: Error>(_ transform: (Never) -> E) -> Result<Output, E>.Publisher {
    Result<Output, E>.Publisher(output)
  }

  /// This publisher; `predicate` is not called.
  public func removeDuplicates(by predicate: (Output, Output) -> Bool) -> Just<Output> { self }

  /// The value, or the error `predicate` throws when it compares the value with itself, now.
  public func tryRemoveDuplicates(by predicate: (Output, Output) throws -> Bool)
    -> Result<Output, any Error>.Publisher
  {
    Result<Output, any Error>.Publisher(
      Result {
        _ = try predicate(output, output)
        return output
      })
  }

  /// This publisher: it never fails.
  public func replaceError(with output: Output) -> Just<Output> { self }

  /// This publisher: it is never empty.
  public func replaceEmpty(with output: Output) -> Just<Output> { self }

  /// This publisher: it never fails, so there is nothing to retry.
  public func retry(_ times: Int) -> Just<Output> { self }

  /// The result of `nextPartialResult` on `initialResult` and the value, run now.
  public func reduce<T>(_ initialResult: T, _ nextPartialResult: (T, Output) -> T)
    -> Result<T, Never>.Publisher
  {
    Result<T, Never>.Publisher(nextPartialResult(initialResult, output))
  }

  /// The result of `nextPartialResult` on `initialResult` and the value, or the error it threw;
  /// run now.
  public func tryReduce<T>(_ initialResult: T, _ nextPartialResult: (T, Output) throws -> T)
    -> Result<T, any Error>.Publisher
  {
    Result<T, any Error>.Publisher(Result { try nextPartialResult(initialResult, output) })
  }

  /// The result of `nextPartialResult` on `initialResult` and the value, run now.
  public func scan<T>(_ initialResult: T, _ nextPartialResult: (T, Output) -> T)
    -> Result<T, Never>.Publisher
  {
    Result<T, Never>.Publisher(nextPartialResult(initialResult, output))
  }

  /// The result of `nextPartialResult` on `initialResult` and the value, or the error it threw;
  /// run now.
  public func tryScan<T>(_ initialResult: T, _ nextPartialResult: (T, Output) throws -> T)
    -> Result<T, any Error>.Publisher
  {
    Result<T, any Error>.Publisher(Result { try nextPartialResult(initialResult, output) })
  }

  /// A sequence publisher of `elements`, then the value.
  public func prepend(_ elements: Output...) -> Publishers.Sequence<[Output], Never> {
    Publishers.Sequence(sequence: elements + [output])
  }

  /// A sequence publisher of `elements`, then the value. As in Combine, `elements` is asked for
  /// its `underestimatedCount` twice, then iterated once (never asked for its `count`).
  public func prepend<S: Sequence>(_ elements: S) -> Publishers.Sequence<[Output], Never>
  where S.Element == Output {
    Publishers.Sequence(sequence: elements + [output])
  }

  /// A sequence publisher of the value, then `elements`.
  public func append(_ elements: Output...) -> Publishers.Sequence<[Output], Never> {
    Publishers.Sequence(sequence: [output] + elements)
  }

  /// A sequence publisher of the value, then `elements`. As in Combine, `elements` is asked for
  /// its `underestimatedCount` once, then iterated once (never asked for its `count`).
  public func append<S: Sequence>(_ elements: S) -> Publishers.Sequence<[Output], Never>
  where S.Element == Output {
    Publishers.Sequence(sequence: [output] + elements)
  }
}
