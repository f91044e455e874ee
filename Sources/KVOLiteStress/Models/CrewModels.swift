import Foundation
import KVOLiteBridge

// The models of the forwarded key path scenario: a ship whose crew, in the middle of the key
// path `crew.name`, takes the registration of `name` over and passes it on to its members.

/// Holds members and registers observers on them: the object in the middle of `crew.name`.
final class Crew: KeyValueObservable, @unchecked Sendable {
  let observationRegistrar = ObservationRegistrar()
  let members: [Keeper]

  init(size: Int) {
    members = (0..<size).map { _ in Keeper() }
    liveObjects.add(1, ordering: .relaxed)
  }
  deinit { liveObjects.subtract(1, ordering: .relaxed) }

  func addObserver(
    _ observer: any KeyValueObserver, forKeyPath keyPath: String, options: ObservingOptions,
    context: UnsafeMutableRawPointer?
  ) throws(KeyValueError) {
    try members.addObserver(
      observer, toObjectsAt: IndexSet(members.indices), forKeyPath: keyPath, options: options,
      context: context)
  }

  func removeObserver(_ observer: any KeyValueObserver, forKeyPath keyPath: String) {
    try? members.removeObserver(
      observer, fromObjectsAt: IndexSet(members.indices), forKeyPath: keyPath)
  }

  func removeObserver(
    _ observer: any KeyValueObserver, forKeyPath keyPath: String, context: UnsafeMutableRawPointer?
  ) {
    try? members.removeObserver(
      observer, fromObjectsAt: IndexSet(members.indices), forKeyPath: keyPath, context: context)
  }

  /// The registrations on the members.
  var registrations: Int { members.reduce(0) { $0 + $1.observationRegistrar.triggerCount } }
}

/// The root of `crew.name`: its crew is replaced while the members' names are set.
final class Ship: KeyValueObservable, @unchecked Sendable {
  let observationRegistrar = ObservationRegistrar()
  @Observed var crew = Crew(size: 3)

  init() { liveObjects.add(1, ordering: .relaxed) }
  deinit { liveObjects.subtract(1, ordering: .relaxed) }
}
