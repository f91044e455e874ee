import Foundation
import KVOLite
import KVOLiteTestSupport
import Testing

/// An element.
private final class Parcel: KeyValueObservable, @unchecked Sendable {
  let observationRegistrar = ObservationRegistrar()
  static let observableKeys: ObservableKeys<Parcel> = [.attribute("weight", \.weight)]
  @Observed var weight: Double
  init(_ weight: Double) { self.weight = weight }
}

/// A van whose parcels live in storage of its own, reached through indexed accessors.
private final class Van: KeyValueObservable, @unchecked Sendable {
  let observationRegistrar = ObservationRegistrar()
  static let observableKeys: ObservableKeys<Van> = [
    .toMany(
      "parcels",
      accessors: IndexedAccessors(
        count: { $0.storage.count },
        element: {
          $0.elementReads += 1
          return $0.storage[$1]
        },
        insert: { $0.storage.insert($1, at: $2) }, remove: { $0.storage.remove(at: $1) })),
    .derived("load", \.load, affectedBy: ["parcels"]),
  ]
  /// Not an array property of the model: the accessors' own storage.
  var storage: [Parcel] = []
  /// How many times the `element` accessor ran.
  var elementReads = 0
  var load: Double { storage.reduce(0) { $0 + $1.weight } }
}

/// A van whose parcels grow by two between any two reads of their count, as when another
/// thread inserts while key-value coding reads.
private final class GrowingVan: KeyValueObservable, @unchecked Sendable {
  let observationRegistrar = ObservationRegistrar()
  static let observableKeys: ObservableKeys<GrowingVan> = [
    .toMany(
      "parcels",
      accessors: IndexedAccessors(
        count: {
          $0.count += 2
          return $0.count
        },
        element: { _, _ in Parcel(0) }, insert: { _, _, _ in }, remove: { _, _ in }))
  ]
  var count = 0
}

@Suite("To-many relationships kept by indexed accessors")
struct IndexedAccessorTests {
  @Test("key-value coding reads through the accessors: the array, an index, @count, operators")
  func reads() throws {
    let van = Van()
    van.storage = [Parcel(1), Parcel(2.5)]
    #expect((try van.value(forKey: "parcels") as? [Parcel])?.count == 2)
    #expect(try van.value(forKeyPath: "parcels.1.weight") as? Double == 2.5)
    #expect(try van.value(forKeyPath: "parcels.@count") as? Int == 2)
    #expect(try van.value(forKeyPath: "parcels.@sum.weight") as? Double == 3.5)
  }

  @Test("an index reads one element, however many there are; out of range names the count")
  func indexReadsOneElement() throws {
    let van = Van()
    van.storage = (0..<100_000).map { Parcel(Double($0)) }
    #expect(try van.value(forKeyPath: "parcels.99999.weight") as? Double == 99_999)
    #expect(van.elementReads == 1)
    #expect(
      throws: KeyValueError.indexOutOfRange(index: 100_000, count: 100_000, path: "parcels.100000")
    ) { try van.value(forKeyPath: "parcels.100000.weight") }
    #expect(van.elementReads == 1)
  }

  @Test("mutations go through insert and remove, and notify once each with exact indexes")
  func mutations() throws {
    let van = Van()
    let log = Log<String>()
    let token = try van.observe("parcels", options: [.old, .new]) { change in
      let indexes = change.indexes.map { Array($0) } ?? []
      let old = (change.oldValue as? [Parcel])?.map(\.weight) ?? []
      let new = (change.newValue as? [Parcel])?.map(\.weight) ?? []
      log.append("\(change.kind) \(indexes) \(old) \(new)")
    }
    let loads = Log<Double>()
    let loadToken = try van.observe("load", options: [.new]) { change in
      loads.append(change.newValue.flatMap { $0 as? Double } ?? -1)
    }
    try van.mutateToMany(
      .insertion, forKeyPath: "parcels", at: [0, 1], elements: [Parcel(1), Parcel(2)])
    try van.mutateToMany(.replacement, forKeyPath: "parcels", at: [1], elements: [Parcel(5)])
    try van.mutateToMany(.removal, forKeyPath: "parcels", at: [0])
    #expect(van.storage.map(\.weight) == [5])
    #expect(
      log.all == [
        "insertion [0, 1] [] [1.0, 2.0]", "replacement [1] [2.0] [5.0]", "removal [0] [1.0] []",
      ])
    #expect(loads.all == [3, 6, 5])
    // Each element's key through the relationship, too.
    let weights = Log<String>()
    let elementToken = try van.observe("parcels.weight", options: [.new]) { change in
      weights.append("\(change.kind) \(change.indexes.map { Array($0) } ?? [])")
    }
    van.storage[0].weight = 7
    #expect(weights.all == ["replacement [0]"])
    _ = (token, loadToken, elementToken)
  }

  @Test("a bad mutation throws before any accessor runs, and notifies nobody")
  func badMutations() throws {
    let van = Van()
    van.storage = [Parcel(1)]
    var notified = 0
    let token = try van.observe("parcels") { _ in notified += 1 }
    #expect(throws: KeyValueError.indexOutOfRange(index: 3, count: 1, path: "parcels")) {
      try van.mutateToMany(.removal, forKeyPath: "parcels", at: [3])
    }
    #expect(throws: KeyValueError.countMismatch(path: "parcels", indexes: 2, elements: 1)) {
      try van.mutateToMany(.insertion, forKeyPath: "parcels", at: [0, 1], elements: [Parcel(2)])
    }
    #expect(
      throws: KeyValueError.typeMismatch(path: "parcels", expected: "Parcel", actual: "String")
    ) { try van.mutateToMany(.insertion, forKeyPath: "parcels", at: [0], elements: ["box"]) }
    #expect(
      throws: KeyValueError.notSettable(key: "parcels", type: "Van", reason: "it is read-only")
    ) { try van.setValue([Parcel(1)], forKey: "parcels") }
    #expect(van.storage.count == 1 && notified == 0)
    _ = token
  }

  @Test("an index out of range names the count it was checked against, not a later one")
  func outOfRangeNamesTheCountChecked() {
    #expect(throws: KeyValueError.indexOutOfRange(index: 3, count: 2, path: "parcels.3")) {
      try GrowingVan().value(forKeyPath: "parcels.3.weight")
    }
  }
}
