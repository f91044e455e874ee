import KVOLiteCombine
import KVOLiteTestSupport
import Testing

/// A collection that records the calls made on it, to compare how operators build collections
/// with how Combine builds them.
final class RecordingCollection: RandomAccessCollection, RangeReplaceableCollection,
  @unchecked Sendable
{
  var storage: [Int]
  let calls = Log<String>()

  init() {
    storage = []
    calls.append("init()")
  }

  init<S: Sequence>(_ elements: S) where S.Element == Int {
    storage = Array(elements)
    calls.append("init(_:)")
  }

  var startIndex: Int { storage.startIndex }
  var endIndex: Int { storage.endIndex }
  subscript(position: Int) -> Int { storage[position] }
  var count: Int {
    calls.append("count")
    return storage.count
  }
  var underestimatedCount: Int {
    calls.append("underestimatedCount")
    return storage.count
  }
  func makeIterator() -> IndexingIterator<[Int]> {
    calls.append("makeIterator")
    return storage.makeIterator()
  }
  func replaceSubrange<C: Collection>(_ subrange: Range<Int>, with newElements: C)
  where C.Element == Int {
    storage.replaceSubrange(subrange, with: newElements)
  }
  func reserveCapacity(_ capacity: Int) {
    calls.append("reserveCapacity")
  }
  func append<S: Sequence>(contentsOf newElements: S) where S.Element == Int {
    calls.append("append(contentsOf:)")
    storage.append(contentsOf: newElements)
  }
}

/// `prepend` and `append` on a `Publishers.Sequence` build the new collection with the same
/// calls as Combine's (OpenCombine's compatibility tests record them).
@Suite("Combine compatibility: prepend and append build collections as Combine's do")
struct SequenceBuildingTests {
  @Test("prepend(values) and prepend(sequence): an empty collection, room for both, two appends")
  func prepend() {
    let base = RecordingCollection([4, 5, 6, 7])
    let variadic = base.publisher.prepend(1, 2, 3).sequence
    #expect(variadic.storage == [1, 2, 3, 4, 5, 6, 7] && base.storage == [4, 5, 6, 7])
    #expect(base.calls.all == ["init(_:)", "count", "underestimatedCount", "makeIterator"])
    #expect(
      variadic.calls.all == [
        "init()", "reserveCapacity", "append(contentsOf:)", "append(contentsOf:)",
      ])

    let other = RecordingCollection([4, 5])
    let prependee = RecordingCollection([1, 2, 3])
    let joined = other.publisher.prepend(prependee).sequence
    #expect(joined.storage == [1, 2, 3, 4, 5])
    #expect(
      prependee.calls.all == [
        "init(_:)", "underestimatedCount", "underestimatedCount", "makeIterator",
      ])
  }

  @Test("append(values) and prepend(publisher): the first collection, with the other appended")
  func append() {
    let base = RecordingCollection([1, 2, 3])
    let appended = base.publisher.append(4, 5).sequence
    #expect(appended.storage == [1, 2, 3, 4, 5])
    #expect(appended.calls.all == ["init(_:)", "append(contentsOf:)"])

    let suffix = RecordingCollection([4, 5])
    let prefix = RecordingCollection([1, 2, 3])
    let joined = suffix.publisher.prepend(prefix.publisher).sequence
    #expect(joined.storage == [1, 2, 3, 4, 5])
    #expect(prefix.calls.all == ["init(_:)", "append(contentsOf:)"])
    #expect(suffix.calls.all == ["init(_:)", "underestimatedCount", "makeIterator"])
  }
}
