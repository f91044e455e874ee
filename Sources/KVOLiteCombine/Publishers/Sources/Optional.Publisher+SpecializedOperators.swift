import KVOLiteLocking

// Combine's specialized operators on `Optional.Publisher`: an operator whose result is known
// from the optional value is answered at once, when it is applied (closures run then), by
// another `Optional.Publisher`, a `Just` or an `Empty`, as in Combine. With no value, most
// answer with no value; `collect()` answers `[]`.

extension Optional.Publisher where Wrapped: Equatable {
  /// Whether the value, if any, equals `output`.
  public func contains(_ output: Output) -> Optional<Bool>.Publisher {
    Optional<Bool>.Publisher(self.output.map { $0 == output })
  }

  /// This publisher: one value has no duplicates.
  public func removeDuplicates() -> Optional<Wrapped>.Publisher { self }
}

extension Optional.Publisher where Wrapped: Comparable {
  /// This publisher: the least of at most one value is that value.
  public func min() -> Optional<Wrapped>.Publisher { self }

  /// This publisher: the greatest of at most one value is that value.
  public func max() -> Optional<Wrapped>.Publisher { self }
}

extension Optional.Publisher {
  /// Whether the value, if any, satisfies `predicate`, which runs now.
  public func allSatisfy(_ predicate: (Output) -> Bool) -> Optional<Bool>.Publisher {
    Optional<Bool>.Publisher(output.map(predicate))
  }

  /// An array of the value, or `[]` with no value.
  public func collect() -> Optional<[Output]>.Publisher {
    Optional<[Output]>.Publisher(output.map { [$0] } ?? [])
  }

  /// The transformed value, if there is a value and `transform` (run now) returns one.
  public func compactMap<T>(_ transform: (Output) -> T?) -> Optional<T>.Publisher {
    Optional<T>.Publisher(output.flatMap(transform))
  }

  /// This publisher; `areInIncreasingOrder` is not called.
  public func min(by areInIncreasingOrder: (Output, Output) -> Bool) -> Optional<Output>.Publisher {
    self
  }

  /// This publisher; `areInIncreasingOrder` is not called.
  public func max(by areInIncreasingOrder: (Output, Output) -> Bool) -> Optional<Output>.Publisher {
    self
  }

  /// Whether the value, if any, satisfies `predicate`, which runs now.
  public func contains(where predicate: (Output) -> Bool) -> Optional<Bool>.Publisher {
    Optional<Bool>.Publisher(output.map(predicate))
  }

  /// 1 with a value; no value without one, as in Combine.
  public func count() -> Optional<Int>.Publisher {
    Optional<Int>.Publisher(output.map { _ in 1 })
  }

  /// The value if `count` is 0. A negative `count` traps, as in Combine.
  public func dropFirst(_ count: Int = 1) -> Optional<Output>.Publisher {
    require(count >= 0, "count must not be negative")
    return Optional<Output>.Publisher(count == 0 ? output : nil)
  }

  /// The value unless `predicate`, which runs now, is true of it.
  public func drop(while predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
    Optional<Output>.Publisher(output.flatMap { predicate($0) ? nil : $0 })
  }

  /// This publisher: its value, if any, is the first.
  public func first() -> Optional<Output>.Publisher { self }

  /// The value if `predicate`, which runs now, is true of it.
  public func first(where predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
    Optional<Output>.Publisher(output.flatMap { predicate($0) ? $0 : nil })
  }

  /// This publisher: its value, if any, is the last.
  public func last() -> Optional<Output>.Publisher { self }

  /// The value if `predicate`, which runs now, is true of it.
  public func last(where predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
    Optional<Output>.Publisher(output.flatMap { predicate($0) ? $0 : nil })
  }

  /// The value if `isIncluded`, which runs now, is true of it.
  public func filter(_ isIncluded: (Output) -> Bool) -> Optional<Output>.Publisher {
    Optional<Output>.Publisher(output.flatMap { isIncluded($0) ? $0 : nil })
  }

  /// A publisher that finishes without a value.
  public func ignoreOutput() -> Empty<Output, Failure> { Empty<Output, Failure>() }

  /// The transformed value, if any; `transform` runs now.
  public func map<T>(_ transform: (Output) -> T) -> Optional<T>.Publisher {
    Optional<T>.Publisher(output.map(transform))
  }

  /// The value if `index` is 0. A negative index traps, as in Combine.
  public func output(at index: Int) -> Optional<Output>.Publisher {
    require(index >= 0, "index must not be negative")
    return Optional<Output>.Publisher(index == 0 ? output : nil)
  }

  /// The value if `range` starts at 0 and is not empty. As in Combine, a negative lower bound
  /// traps, and so does an upper bound of `Int.max - 1` or more (`0...` among them: the range
  /// is taken relative to `0..<Int.max`).
  public func output<R: RangeExpression>(in range: R) -> Optional<Output>.Publisher
  where R.Bound == Int {
    let range = range.relative(to: 0..<Int.max)
    require(range.lowerBound >= 0, "lowerBound must not be negative")
    require(range.upperBound < Int.max - 1, "upperBound must be less than Int.max - 1")
    return Optional<Output>.Publisher(
      range.lowerBound == 0 && range.upperBound != 0 ? output : nil)
  }

  /// The value unless `maxLength` is 0. A negative `maxLength` traps, as in Combine.
  public func prefix(_ maxLength: Int) -> Optional<Output>.Publisher {
    require(maxLength >= 0, "maxLength must not be negative")
    return Optional<Output>.Publisher(maxLength > 0 ? output : nil)
  }

  /// The value if `predicate`, which runs now, is true of it.
  public func prefix(while predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
    Optional<Output>.Publisher(output.flatMap { predicate($0) ? $0 : nil })
  }

  /// The result of `nextPartialResult` on `initialResult` and the value, if any; run now.
  public func reduce<T>(_ initialResult: T, _ nextPartialResult: (T, Output) -> T)
    -> Optional<T>.Publisher
  {
    Optional<T>.Publisher(output.map { nextPartialResult(initialResult, $0) })
  }

  /// The result of `nextPartialResult` on `initialResult` and the value, if any; run now.
  public func scan<T>(_ initialResult: T, _ nextPartialResult: (T, Output) -> T)
    -> Optional<T>.Publisher
  {
    Optional<T>.Publisher(output.map { nextPartialResult(initialResult, $0) })
  }

  /// This publisher; `predicate` is not called.
  public func removeDuplicates(by predicate: (Output, Output) -> Bool)
    -> Optional<Output>.Publisher
  { self }

  /// This publisher: it never fails.
  public func replaceError(with output: Output) -> Optional<Output>.Publisher { self }

  /// A `Just` of the value, or of `output` with no value.
  public func replaceEmpty(with output: Output) -> Just<Output> { Just(self.output ?? output) }

  /// This publisher: it never fails, so there is nothing to retry.
  public func retry(_ times: Int) -> Optional<Output>.Publisher { self }
}
