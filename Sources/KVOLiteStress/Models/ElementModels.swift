import Foundation
import KVOLiteBridge
import KVOLiteTestSupport

/// An element of the crates and vans below: a volume. Equal by identity, so that a replay of a
/// relationship can compare its elements.
final class Bottle: KeyValueObservable, Equatable, @unchecked Sendable {
  let observationRegistrar = ObservationRegistrar()
  static let observableKeys: ObservableKeys<Bottle> = [.attribute("volume", \.volume)]
  @Observed var volume = 0

  init() { liveObjects.add(1, ordering: .relaxed) }
  deinit { liveObjects.subtract(1, ordering: .relaxed) }

  static func == (a: Bottle, b: Bottle) -> Bool { a === b }
}

/// A to-many relationship of observable elements, with a value derived from every element.
final class Crate: KeyValueObservable, @unchecked Sendable {
  let observationRegistrar = ObservationRegistrar()
  static let observableKeys: ObservableKeys<Crate> = [
    .toMany("bottles", \.bottles),
    .derived("totalVolume", \.totalVolume, affectedBy: ["bottles.volume"]),
  ]
  @Observed var bottles: [Bottle] = []
  var totalVolume: Int { bottles.reduce(0) { $0 + $1.volume } }
  /// Counts the crate's release.
  let released: Counter?

  init(released: Counter? = nil) {
    self.released = released
    liveObjects.add(1, ordering: .relaxed)
  }

  deinit {
    released?.increment()
    liveObjects.subtract(1, ordering: .relaxed)
  }
}

/// A to-many relationship kept by indexed accessors over storage of the van's own, shared
/// between threads: every use of it is serialized by the van's lock, as ``IndexedAccessors``
/// asks. The accessors count the calls made without the lock held by the calling thread, or
/// with an index out of range (where an Array would trap).
final class Van: KeyValueObservable, @unchecked Sendable {
  // @unchecked: `storage` and `misuse` are behind `lock`.
  let observationRegistrar = ObservationRegistrar()
  static let observableKeys: ObservableKeys<Van> = [
    .toMany(
      "bottles",
      accessors: IndexedAccessors(
        count: { van in van.checked { $0.storage.count } },
        element: { van, index in
          van.checked { $0.storage.indices.contains(index) ? $0.storage[index] : $0.misused() }
        },
        insert: { van, bottle, index in
          van.checked { van in
            if index <= van.storage.count {
              van.storage.insert(bottle, at: index)
            } else {
              _ = van.misused()
            }
          }
        },
        remove: { van, index in
          van.checked { van in
            if van.storage.indices.contains(index) {
              van.storage.remove(at: index)
            } else {
              _ = van.misused()
            }
          }
        })),
    .derived("load", \.load, affectedBy: ["bottles.volume"]),
  ]
  private let lock = OwnerLock()
  private var storage: [Bottle] = []
  private var misuse = 0

  init() { liveObjects.add(1, ordering: .relaxed) }
  deinit { liveObjects.subtract(1, ordering: .relaxed) }

  /// The sum of the volumes, read under the lock.
  var load: Int { withLock { $0.storage.reduce(0) { $0 + $1.volume } } }
  /// The elements, read under the lock.
  var bottles: [Bottle] { withLock { $0.storage } }
  /// Accessor calls made without the lock, or with an index out of range.
  var misuses: Int { withLock { $0.misuse } }

  /// Runs `body` with the van's lock held (recursively: observers called inside may read).
  func withLock<Result>(_ body: (Van) throws -> Result) rethrows -> Result {
    try lock.withLock { try body(self) }
  }

  private func checked<Result>(_ body: (Van) -> Result) -> Result {
    lock.check { heldByOwner in
      if !heldByOwner { misuse += 1 }
      return body(self)
    }
  }

  private func misused() -> Bottle {
    misuse += 1
    return Bottle()
  }
}
