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

/// A parcel that compares by identity, so that a replay of the relationship can compare
/// elements.
private final class Crate: KeyValueObservable, Equatable, @unchecked Sendable {
  let observationRegistrar = ObservationRegistrar()
  static let observableKeys: ObservableKeys<Crate> = [.attribute("weight", \.weight)]
  @Observed var weight: Double
  init(_ weight: Double) { self.weight = weight }
  static func == (a: Crate, b: Crate) -> Bool { a === b }
}

/// A truck shared between threads: its owner serializes every use of the relationship with its
/// lock, as ``IndexedAccessors`` asks, and its accessors count the calls made without it or
/// with an index out of range (an Array would trap on those).
private final class Truck: KeyValueObservable, @unchecked Sendable {
  let observationRegistrar = ObservationRegistrar()
  static let observableKeys: ObservableKeys<Truck> = [
    .toMany(
      "crates",
      accessors: IndexedAccessors(
        count: { $0.checked { $0.storage.count } },
        element: { truck, index in
          truck.checked { $0.storage.indices.contains(index) ? $0.storage[index] : Crate(-1) }
        },
        insert: { truck, crate, index in
          truck.checked {
            if index <= $0.storage.count {
              $0.storage.insert(crate, at: index)
            } else {
              $0.misuse += 1
            }
          }
        },
        remove: { truck, index in
          truck.checked {
            if $0.storage.indices.contains(index) {
              $0.storage.remove(at: index)
            } else {
              $0.misuse += 1
            }
          }
        })),
    .derived("load", \.load, affectedBy: ["crates.weight"]),
  ]
  private let lock = OwnerLock()
  var storage: [Crate] = []
  /// Accessor calls made without the lock or with an index out of range.
  var misuse = 0
  var load: Double { withLock { $0.storage.reduce(0) { $0 + $1.weight } } }

  func withLock<Result>(_ body: (Truck) throws -> Result) rethrows -> Result {
    try lock.withLock { try body(self) }
  }

  private func checked<Result>(_ body: (Truck) -> Result) -> Result {
    lock.check { heldByOwner in
      if !heldByOwner { misuse += 1 }
      return body(self)
    }
  }
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

  /// The `element` accessor's calls for an insertion, a replacement and a removal in the
  /// middle of 1,000 parcels, with `path` observed, and what the observer heard of them, each
  /// change as `describe` writes it.
  private static func mutationReads(
    observing path: String, _ describe: @escaping @Sendable (KeyValueChange<Any?>) -> String
  ) throws -> (reads: Int, heard: [String]) {
    let van = Van()
    van.storage = (0..<1_000).map { Parcel(Double($0)) }
    let heard = Log<String>()
    let token = try van.observe(path, options: [.old, .new]) { heard.append(describe($0)) }
    // The first change after the registration reads the relationship (see ChangeWindows).
    try van.mutateToMany(.insertion, forKeyPath: "parcels", at: [0], elements: [Parcel(-1)])
    van.elementReads = 0
    try van.mutateToMany(.insertion, forKeyPath: "parcels", at: [500], elements: [Parcel(-2)])
    try van.mutateToMany(.replacement, forKeyPath: "parcels", at: [400], elements: [Parcel(-3)])
    try van.mutateToMany(.removal, forKeyPath: "parcels", at: [600])
    withExtendedLifetime(token) {}
    return (van.elementReads, Array(heard.all.dropFirst()))
  }

  @Test(
    "observing a key of every element, a mutation reads the elements it changes, not the relationship"
  )
  func elementObservationReadsTheChangeOnly() throws {
    let describe: @Sendable (KeyValueChange<Any?>) -> String = { change in
      let indexes = change.indexes.map { Array($0) } ?? []
      func text(_ value: Any??) -> String {
        guard let values = (value ?? nil) as? [Any] else { return "-" }
        return values.map { ($0 as? Parcel)?.weight ?? ($0 as? Double) ?? .nan }
          .map { "\($0)" }
          .joined(separator: ",")
      }
      return "\(change.kind) \(indexes) \(text(change.oldValue)) \(text(change.newValue))"
    }
    let relationship = try Self.mutationReads(observing: "parcels", describe)
    let elements = try Self.mutationReads(observing: "parcels.weight", describe)
    #expect(elements.reads == relationship.reads)
    #expect(
      elements.heard == [
        "insertion [500] - -2.0", "replacement [400] 399.0 -3.0", "removal [600] 598.0 -",
      ])
  }

  @Test(
    "observing an operator over a key of every element, a mutation reads the elements it changes, not the relationship, and the value is computed once"
  )
  func operatorObservationReadsTheChangeOnly() throws {
    let describe: @Sendable (KeyValueChange<Any?>) -> String = { change in
      func text(_ value: Any??) -> String { (value ?? nil).map { "\($0)" } ?? "-" }
      return "\(change.kind) \(text(change.oldValue)) \(text(change.newValue))"
    }
    let relationship = try Self.mutationReads(observing: "parcels", describe)
    let sum = try Self.mutationReads(observing: "parcels.@sum.weight", describe)
    #expect(sum.reads == relationship.reads)
    // 0 + … + 999 = 499,500; then −1, −2, −399 − 3, −598.
    #expect(
      sum.heard == [
        "setting 499499.0 499497.0", "setting 499497.0 499095.0", "setting 499095.0 498497.0",
      ])
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

  @Test(
    "changed from several threads under its owner's lock, accessors see only in-range indexes, never outside the lock, and every observer's changes rebuild the model"
  )
  func concurrentMutationsUnderTheOwnersLock() throws {
    for round in 0..<20 {
      let truck = Truck()
      let pool = (0..<5).map { Crate(Double($0)) }
      let exact = ToManyReplay<Crate>()
      let weights = ToManyReplay<Double>()
      let loads = Locked<Double?>(nil)
      let sums = Locked<Double?>(nil)
      let tokens = try truck.withLock { truck in
        truck.storage = [pool[0], pool[0]]
        return [
          try truck.observe("crates", options: [.initial, .old, .new]) { exact.apply($0) },
          try truck.observe("crates.weight", options: [.initial, .old, .new]) {
            weights.apply($0)
          },
          try truck.observe("crates.@sum.weight", options: [.initial, .new]) { change in
            sums.withLock { $0 = change.newValue as? Double }
          },
          truck.observe(\.load, options: [.initial, .new]) { _, change in
            loads.withLock { $0 = change.newValue }
          },
        ]
      }
      race(workers: 4) { worker in
        for index in 0..<300 {
          switch worker {
          case 0, 1:
            truck.withLock { truck in
              let count = truck.storage.count
              if worker == 0 || count == 0 {
                try? truck.mutateToMany(
                  .insertion, forKeyPath: "crates", at: [index % (count + 1)],
                  elements: [pool[index % pool.count]])
              } else {
                try? truck.mutateToMany(.removal, forKeyPath: "crates", at: [index % count])
              }
            }
          case 2:
            truck.withLock { truck in
              guard !truck.storage.isEmpty else { return }
              try? truck.mutateToMany(
                .replacement, forKeyPath: "crates", at: [0], elements: [pool[index % pool.count]])
            }
          default: pool[index % pool.count].weight = Double(index)
          }
        }
      }
      truck.withLock { truck in
        #expect(truck.misuse == 0, "round \(round)")
        #expect(exact.problems == [] && exact.elements == truck.storage, "round \(round)")
        #expect(weights.problems == [], "round \(round)")
        #expect(weights.elements == truck.storage.map(\.weight), "round \(round)")
        #expect(sums.withLock { $0 } == truck.load, "round \(round)")
        #expect(loads.withLock { $0 } == truck.load, "round \(round)")
      }
      _ = tokens
    }
  }

  @Test("an index out of range names the count it was checked against, not a later one")
  func outOfRangeNamesTheCountChecked() {
    #expect(throws: KeyValueError.indexOutOfRange(index: 3, count: 2, path: "parcels.3")) {
      try GrowingVan().value(forKeyPath: "parcels.3.weight")
    }
  }
}
