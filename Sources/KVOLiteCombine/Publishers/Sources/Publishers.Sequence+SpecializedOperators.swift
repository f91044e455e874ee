// Combine's specialized operators on `Publishers.Sequence` that give another sequence publisher:
// the operator is applied to the whole sequence at once, when it is called (closures run then,
// over every element), and the result publishes the new sequence. As in Combine, applying one
// of these to an infinite sequence never returns; put a generic operator first (`.print()`,
// `.eraseToAnyPublisher()`) to get the lazy, element-by-element form instead.

extension Publishers.Sequence {
  /// The elements that `transform` (run now, on every element) turns into a value.
  public func compactMap<T>(_ transform: (Elements.Element) -> T?)
    -> Publishers.Sequence<[T], Failure>
  {
    Publishers.Sequence<[T], Failure>(sequence: sequence.compactMap(transform))
  }

  /// The elements from the first that does not satisfy `predicate` on; `predicate` runs now,
  /// up to that element.
  public func drop(while predicate: (Elements.Element) -> Bool)
    -> Publishers.Sequence<DropWhileSequence<Elements>, Failure>
  {
    Publishers.Sequence<DropWhileSequence<Elements>, Failure>(
      sequence: sequence.drop(while: predicate))
  }

  /// The elements after the first `count`. A negative `count` traps, as the standard library's
  /// `dropFirst` does.
  public func dropFirst(_ count: Int = 1)
    -> Publishers.Sequence<DropFirstSequence<Elements>, Failure>
  {
    Publishers.Sequence<DropFirstSequence<Elements>, Failure>(sequence: sequence.dropFirst(count))
  }

  /// The elements that satisfy `isIncluded`, which runs now, on every element.
  public func filter(_ isIncluded: (Elements.Element) -> Bool)
    -> Publishers.Sequence<[Elements.Element], Failure>
  {
    Publishers.Sequence<[Elements.Element], Failure>(sequence: sequence.filter(isIncluded))
  }

  /// No elements, then `.finished`: an `Empty`. The sequence is not iterated.
  public func ignoreOutput() -> Empty<Elements.Element, Failure> {
    Empty()
  }

  /// The elements transformed by `transform`, which runs now, on every element.
  public func map<T>(_ transform: (Elements.Element) -> T) -> Publishers.Sequence<[T], Failure> {
    Publishers.Sequence<[T], Failure>(sequence: sequence.map(transform))
  }

  /// The first `maxLength` elements. A negative `maxLength` traps, as the standard library's
  /// `prefix` does.
  public func prefix(_ maxLength: Int) -> Publishers.Sequence<PrefixSequence<Elements>, Failure> {
    Publishers.Sequence<PrefixSequence<Elements>, Failure>(sequence: sequence.prefix(maxLength))
  }

  /// The elements before the first that does not satisfy `predicate`, which runs now, up to
  /// that element.
  public func prefix(while predicate: (Elements.Element) -> Bool)
    -> Publishers.Sequence<[Elements.Element], Failure>
  {
    Publishers.Sequence<[Elements.Element], Failure>(sequence: sequence.prefix(while: predicate))
  }

  /// The elements with each `nil` replaced by `output`. As in Combine, the elements stay
  /// optional (`[1, nil].publisher.replaceNil(with: 0)` publishes `Optional(1)`, `Optional(0)`).
  public func replaceNil<T>(with output: T) -> Publishers.Sequence<[Elements.Element], Failure>
  where Elements.Element == T? {
    Publishers.Sequence<[Elements.Element], Failure>(sequence: sequence.map { $0 ?? output })
  }

  /// Every partial result of combining the elements with `nextPartialResult`, which runs now,
  /// on every element, starting from `initialResult`.
  public func scan<T>(
    _ initialResult: T, _ nextPartialResult: @escaping (T, Elements.Element) -> T
  ) -> Publishers.Sequence<[T], Failure> {
    var partial = initialResult
    var results: [T] = []
    results.reserveCapacity(sequence.underestimatedCount)
    for element in sequence {
      partial = nextPartialResult(partial, element)
      results.append(partial)
    }
    return Publishers.Sequence<[T], Failure>(sequence: results)
  }

  /// The same elements, from a publisher whose failure type is `failureType`.
  public func setFailureType<E: Error>(to failureType: E.Type) -> Publishers.Sequence<Elements, E> {
    Publishers.Sequence<Elements, E>(sequence: sequence)
  }
}

extension Publishers.Sequence where Elements.Element: Equatable {
  /// The elements without those equal to the element before them.
  public func removeDuplicates() -> Publishers.Sequence<[Elements.Element], Failure> {
    var kept: [Elements.Element] = []
    for element in sequence where kept.last != element {
      kept.append(element)
    }
    return Publishers.Sequence<[Elements.Element], Failure>(sequence: kept)
  }
}

extension Publishers.Sequence where Elements: Collection {
  /// The elements at the indexes in `range`. A range outside the collection's indexes traps,
  /// as slicing the collection does (and as Combine's does).
  public func output(in range: Range<Elements.Index>)
    -> Publishers.Sequence<[Elements.Element], Failure>
  {
    Publishers.Sequence<[Elements.Element], Failure>(sequence: Array(sequence[range]))
  }
}

extension Publishers.Sequence where Elements: RandomAccessCollection {
  /// The elements at the indexes in `range`; see the `Collection` form.
  public func output(in range: Range<Elements.Index>)
    -> Publishers.Sequence<[Elements.Element], Failure>
  {
    Publishers.Sequence<[Elements.Element], Failure>(sequence: Array(sequence[range]))
  }
}

extension Publishers.Sequence where Elements: RangeReplaceableCollection {
  /// `elements`, then this publisher's elements, in one collection of the same type.
  public func prepend(_ elements: Elements.Element...) -> Publishers.Sequence<Elements, Failure> {
    prepend(elements)
  }

  /// `elements`, then this publisher's elements, in one collection of the same type.
  public func prepend<S: Swift.Sequence>(_ elements: S) -> Publishers.Sequence<Elements, Failure>
  where S.Element == Elements.Element {
    // As Combine builds it: an empty collection with room for both, then each appended.
    var joined = Elements()
    joined.reserveCapacity(sequence.count + elements.underestimatedCount)
    joined.append(contentsOf: elements)
    joined.append(contentsOf: sequence)
    return Publishers.Sequence<Elements, Failure>(sequence: joined)
  }

  /// `publisher`'s elements, then this publisher's, in one collection.
  public func prepend(_ publisher: Publishers.Sequence<Elements, Failure>)
    -> Publishers.Sequence<Elements, Failure>
  {
    // As Combine builds it: the other publisher's collection, with this one appended.
    var joined = publisher.sequence
    joined.append(contentsOf: sequence)
    return Publishers.Sequence<Elements, Failure>(sequence: joined)
  }

  /// This publisher's elements, then `elements`, in one collection of the same type.
  public func append(_ elements: Elements.Element...) -> Publishers.Sequence<Elements, Failure> {
    append(elements)
  }

  /// This publisher's elements, then `elements`, in one collection of the same type.
  public func append<S: Swift.Sequence>(_ elements: S) -> Publishers.Sequence<Elements, Failure>
  where S.Element == Elements.Element {
    var joined = sequence
    joined.append(contentsOf: elements)
    return Publishers.Sequence<Elements, Failure>(sequence: joined)
  }

  /// This publisher's elements, then `publisher`'s, in one collection.
  public func append(_ publisher: Publishers.Sequence<Elements, Failure>)
    -> Publishers.Sequence<Elements, Failure>
  {
    append(publisher.sequence)
  }
}
