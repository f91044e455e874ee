// Combine's specialized operators on `Publishers.Sequence` whose result is one value known from
// the whole sequence: it is computed when the operator is called (closures run then), and
// published by a `Result.Publisher`, an `Optional.Publisher` or a `Just`. A sequence publisher
// never fails, so the `Result` is a success unless a `try` closure throws.

extension Publishers.Sequence {
  /// Whether every element satisfies `predicate`, which runs now, up to the first that does not.
  public func allSatisfy(_ predicate: (Elements.Element) -> Bool) -> Result<Bool, Failure>.Publisher
  {
    Result<Bool, Failure>.Publisher(sequence.allSatisfy(predicate))
  }

  /// As ``allSatisfy(_:)``, failing with the error `predicate` throws.
  public func tryAllSatisfy(_ predicate: (Elements.Element) throws -> Bool)
    -> Result<Bool, any Error>.Publisher
  {
    Result<Bool, any Error>.Publisher(Result { try sequence.allSatisfy(predicate) })
  }

  /// All the elements, in one array.
  public func collect() -> Result<[Elements.Element], Failure>.Publisher {
    Result<[Elements.Element], Failure>.Publisher(Array(sequence))
  }

  /// Whether an element satisfies `predicate`, which runs now, up to the first that does.
  public func contains(where predicate: (Elements.Element) -> Bool)
    -> Result<Bool, Failure>.Publisher
  {
    Result<Bool, Failure>.Publisher(sequence.contains(where: predicate))
  }

  /// As ``contains(where:)``, failing with the error `predicate` throws.
  public func tryContains(where predicate: (Elements.Element) throws -> Bool)
    -> Result<Bool, any Error>.Publisher
  {
    Result<Bool, any Error>.Publisher(Result { try sequence.contains(where: predicate) })
  }

  /// The elements combined by `nextPartialResult`, which runs now, on every element, starting
  /// from `initialResult`.
  public func reduce<T>(
    _ initialResult: T, _ nextPartialResult: @escaping (T, Elements.Element) -> T
  ) -> Result<T, Failure>.Publisher {
    Result<T, Failure>.Publisher(sequence.reduce(initialResult, nextPartialResult))
  }

  /// As ``reduce(_:_:)``, failing with the error `nextPartialResult` throws.
  public func tryReduce<T>(
    _ initialResult: T, _ nextPartialResult: @escaping (T, Elements.Element) throws -> T
  ) -> Result<T, any Error>.Publisher {
    Result<T, any Error>.Publisher(Result { try sequence.reduce(initialResult, nextPartialResult) })
  }
}

extension Publishers.Sequence where Elements.Element: Equatable {
  /// Whether an element equals `output`.
  public func contains(_ output: Elements.Element) -> Result<Bool, Failure>.Publisher {
    Result<Bool, Failure>.Publisher(sequence.contains(output))
  }
}

extension Publishers.Sequence where Failure == Never {
  /// The least element by `areInIncreasingOrder` (run now), or no value if there are none.
  public func min(by areInIncreasingOrder: (Elements.Element, Elements.Element) -> Bool)
    -> Optional<Elements.Element>.Publisher
  {
    Optional<Elements.Element>.Publisher(sequence.min(by: areInIncreasingOrder))
  }

  /// The greatest element by `areInIncreasingOrder` (run now), or no value if there are none.
  public func max(by areInIncreasingOrder: (Elements.Element, Elements.Element) -> Bool)
    -> Optional<Elements.Element>.Publisher
  {
    Optional<Elements.Element>.Publisher(sequence.max(by: areInIncreasingOrder))
  }

  /// The first element that satisfies `predicate` (run now), or no value.
  public func first(where predicate: (Elements.Element) -> Bool)
    -> Optional<Elements.Element>.Publisher
  {
    Optional<Elements.Element>.Publisher(sequence.first(where: predicate))
  }
}

extension Publishers.Sequence where Failure == Never, Elements.Element: Comparable {
  /// The least element, or no value if there are none.
  public func min() -> Optional<Elements.Element>.Publisher {
    Optional<Elements.Element>.Publisher(sequence.min())
  }

  /// The greatest element, or no value if there are none.
  public func max() -> Optional<Elements.Element>.Publisher {
    Optional<Elements.Element>.Publisher(sequence.max())
  }
}

extension Publishers.Sequence where Elements: Collection, Failure == Never {
  /// The first element, or no value if there are none.
  public func first() -> Optional<Elements.Element>.Publisher {
    Optional<Elements.Element>.Publisher(sequence.first)
  }

  /// The element at `index`, or no value if `index` is not one of the collection's indexes
  /// (this does not trap, unlike the generic `output(at:)` with a negative index).
  public func output(at index: Elements.Index) -> Optional<Elements.Element>.Publisher {
    Optional<Elements.Element>.Publisher(
      sequence.indices.contains(index) ? sequence[index] : nil)
  }
}

extension Publishers.Sequence where Elements: Collection {
  /// The number of elements.
  public func count() -> Result<Int, Failure>.Publisher {
    Result<Int, Failure>.Publisher(sequence.count)
  }
}

extension Publishers.Sequence where Elements: BidirectionalCollection, Failure == Never {
  /// The last element, or no value if there are none.
  public func last() -> Optional<Elements.Element>.Publisher {
    Optional<Elements.Element>.Publisher(sequence.last)
  }

  /// The last element that satisfies `predicate` (run now, from the end), or no value.
  public func last(where predicate: (Elements.Element) -> Bool)
    -> Optional<Elements.Element>.Publisher
  {
    Optional<Elements.Element>.Publisher(sequence.last(where: predicate))
  }
}

extension Publishers.Sequence where Elements: RandomAccessCollection, Failure == Never {
  /// The element at `index`, or no value; see the `Collection` form.
  public func output(at index: Elements.Index) -> Optional<Elements.Element>.Publisher {
    Optional<Elements.Element>.Publisher(
      sequence.indices.contains(index) ? sequence[index] : nil)
  }

  /// The number of elements, as a `Just`.
  public func count() -> Just<Int> {
    Just(sequence.count)
  }
}

extension Publishers.Sequence where Elements: RandomAccessCollection {
  /// The number of elements.
  public func count() -> Result<Int, Failure>.Publisher {
    Result<Int, Failure>.Publisher(sequence.count)
  }
}
