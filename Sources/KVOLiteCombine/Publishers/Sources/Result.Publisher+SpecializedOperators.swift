// Combine's specialized operators on `Result.Publisher`: an operator whose result is known from
// the result is answered at once, when it is applied (closures run then, on a success), by
// another `Result.Publisher` or an `Empty`, as in Combine. A failure passes through unchanged
// (upcast to `any Error` by the `try` forms).

extension Result.Publisher where Output: Equatable {
  /// Whether the value equals `output`; a failure passes through.
  public func contains(_ output: Output) -> Result<Bool, Failure>.Publisher {
    Result<Bool, Failure>.Publisher(result.map { $0 == output })
  }

  /// This publisher: one value has no duplicates.
  public func removeDuplicates() -> Result<Output, Failure>.Publisher { self }
}

extension Result.Publisher where Output: Comparable {
  /// This publisher: the least of one value is that value.
  public func min() -> Result<Output, Failure>.Publisher { self }

  /// This publisher: the greatest of one value is that value.
  public func max() -> Result<Output, Failure>.Publisher { self }
}

extension Result.Publisher where Failure == Never {
  /// The value, as a publisher whose failure type is `failureType`.
  public func setFailureType<E: Error>(to failureType: E.Type) -> Result<Output, E>.Publisher {
    switch result {
    case .success(let output): Result<Output, E>.Publisher(output)
    }
  }
}

extension Result.Publisher {
  /// `body` applied to the value now, with its error or the failure as `any Error`.
  private func trying<T>(_ body: (Output) throws -> T) -> Result<T, any Error>.Publisher {
    switch result {
    case .success(let output):
      Result<T, any Error>.Publisher(Swift.Result<T, any Error> { try body(output) })
    case .failure(let failure): Result<T, any Error>.Publisher(.failure(failure))
    }
  }

  /// Whether the value satisfies `predicate`, which runs now; a failure passes through.
  public func allSatisfy(_ predicate: (Output) -> Bool) -> Result<Bool, Failure>.Publisher {
    Result<Bool, Failure>.Publisher(result.map(predicate))
  }

  /// As ``allSatisfy(_:)``, failing with the error `predicate` throws.
  public func tryAllSatisfy(_ predicate: (Output) throws -> Bool)
    -> Result<Bool, any Error>.Publisher
  { trying(predicate) }

  /// Whether the value satisfies `predicate`, which runs now; a failure passes through.
  public func contains(where predicate: (Output) -> Bool) -> Result<Bool, Failure>.Publisher {
    Result<Bool, Failure>.Publisher(result.map(predicate))
  }

  /// As ``contains(where:)``, failing with the error `predicate` throws.
  public func tryContains(where predicate: (Output) throws -> Bool)
    -> Result<Bool, any Error>.Publisher
  { trying(predicate) }

  /// An array holding the value; a failure passes through.
  public func collect() -> Result<[Output], Failure>.Publisher {
    Result<[Output], Failure>.Publisher(result.map { [$0] })
  }

  /// This publisher; `areInIncreasingOrder` is not called.
  public func min(by areInIncreasingOrder: (Output, Output) -> Bool)
    -> Result<Output, Failure>.Publisher
  { self }

  /// The value, or the error `areInIncreasingOrder` throws comparing it with itself, now.
  public func tryMin(by areInIncreasingOrder: (Output, Output) throws -> Bool)
    -> Result<Output, any Error>.Publisher
  {
    trying { output in
      _ = try areInIncreasingOrder(output, output)
      return output
    }
  }

  /// This publisher; `areInIncreasingOrder` is not called.
  public func max(by areInIncreasingOrder: (Output, Output) -> Bool)
    -> Result<Output, Failure>.Publisher
  { self }

  /// The value, or the error `areInIncreasingOrder` throws comparing it with itself, now: the
  /// same answer as ``tryMin(by:)``, since one value is both.
  public func tryMax(by areInIncreasingOrder: (Output, Output) throws -> Bool)
    -> Result<Output, any Error>.Publisher
  { tryMin(by: areInIncreasingOrder) }

  /// 1 for a value; a failure passes through.
  public func count() -> Result<Int, Failure>.Publisher {
    Result<Int, Failure>.Publisher(result.map { _ in 1 })
  }

  /// This publisher: its value is the first.
  public func first() -> Result<Output, Failure>.Publisher { self }

  /// This publisher: its value is the last.
  public func last() -> Result<Output, Failure>.Publisher { self }

  /// A publisher that finishes without a value (Combine's answer, even for a failure).
  public func ignoreOutput() -> Empty<Output, Failure> { Empty<Output, Failure>() }

  /// The transformed value, `transform` run now; a failure passes through.
  public func map<T>(_ transform: (Output) -> T) -> Result<T, Failure>.Publisher {
    Result<T, Failure>.Publisher(result.map(transform))
  }

  /// The transformed value, or the error `transform` throws; run now.
  public func tryMap<T>(_ transform: (Output) throws -> T) -> Result<T, any Error>.Publisher {
    trying(transform)
  }

  /// The value, or the transformed failure; `transform` runs now.
  public func mapError<E: Error>(_ transform: (Failure) -> E) -> Result<Output, E>.Publisher {
    Result<Output, E>.Publisher(result.mapError(transform))
  }

  /// This publisher; `predicate` is not called.
  public func removeDuplicates(by predicate: (Output, Output) -> Bool)
    -> Result<Output, Failure>.Publisher
  { self }

  /// The value, or the error `predicate` throws comparing it with itself, now.
  public func tryRemoveDuplicates(by predicate: (Output, Output) throws -> Bool)
    -> Result<Output, any Error>.Publisher
  {
    trying { output in
      _ = try predicate(output, output)
      return output
    }
  }

  /// The value, or `output` in place of a failure.
  public func replaceError(with output: Output) -> Result<Output, Never>.Publisher {
    switch result {
    case .success(let value): Result<Output, Never>.Publisher(value)
    case .failure: Result<Output, Never>.Publisher(output)
    }
  }

  /// This publisher: it is never empty.
  public func replaceEmpty(with output: Output) -> Result<Output, Failure>.Publisher { self }

  /// This publisher: retrying a result gives the same result.
  public func retry(_ times: Int) -> Result<Output, Failure>.Publisher { self }

  /// The result of `nextPartialResult` on `initialResult` and the value, run now; a failure
  /// passes through.
  public func reduce<T>(_ initialResult: T, _ nextPartialResult: (T, Output) -> T)
    -> Result<T, Failure>.Publisher
  {
    Result<T, Failure>.Publisher(result.map { nextPartialResult(initialResult, $0) })
  }

  /// As ``reduce(_:_:)``, failing with the error `nextPartialResult` throws.
  public func tryReduce<T>(_ initialResult: T, _ nextPartialResult: (T, Output) throws -> T)
    -> Result<T, any Error>.Publisher
  { trying { try nextPartialResult(initialResult, $0) } }

  /// The result of `nextPartialResult` on `initialResult` and the value, run now; a failure
  /// passes through.
  public func scan<T>(_ initialResult: T, _ nextPartialResult: (T, Output) -> T)
    -> Result<T, Failure>.Publisher
  {
    Result<T, Failure>.Publisher(result.map { nextPartialResult(initialResult, $0) })
  }

  /// As ``scan(_:_:)``, failing with the error `nextPartialResult` throws.
  public func tryScan<T>(_ initialResult: T, _ nextPartialResult: (T, Output) throws -> T)
    -> Result<T, any Error>.Publisher
  { trying { try nextPartialResult(initialResult, $0) } }
}
