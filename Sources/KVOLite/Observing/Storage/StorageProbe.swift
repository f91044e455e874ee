import KVOLiteLocking
import Synchronization

/// Finds where a key's ``Observed`` storage lies in its object, so that registration can mark
/// it observed and to-many mutations can lock it.
///
/// A key path to a property-wrapped property goes through the property's accessors, which
/// cannot say where the storage is. So the registrar reads the key once through its declared
/// key path while this thread is "probing"; every ``Observed`` getter that runs sees the probe
/// and reports its storage's address and its own (wrapped) key path. The storage whose key path
/// is the declared one is the key's; a computed getter that reads other properties finds none.
/// Nothing is locked while the getter runs (it may be any computed property, declared with
/// `notifiesAutomatically: false`).
///
/// Getters check a process-wide count of probes in progress: one relaxed load. Only when it is
/// non-zero do they look at their thread's request. The offset found is the same for every
/// object of a final class, so each key is probed once per type (see ``KeyTable``).
@usableFromInline
enum StorageProbe {
  /// How many threads are probing now.
  @usableFromInline static let active = Atomic<Int>(0)

  /// What a probing thread is looking for, and what it found.
  struct Request {
    /// The object whose getter is being run.
    let base: UnsafeRawPointer
    /// The key path of the property whose storage is wanted.
    let keyPath: AnyKeyPath
    /// The storage of that property, if its getter reported.
    var found: Int?
    /// The storage's key path (`\Contact._nickname`), if its getter reported.
    var storageKeyPath: AnyKeyPath?
  }

  /// Whether some thread is probing.
  @inlinable
  static var isActive: Bool { active.load(ordering: .relaxed) != 0 }

  /// Called by ``Observed``'s getter while a probe is in progress anywhere.
  @usableFromInline
  static func report(_ storage: UnsafeRawPointer, keyPath: AnyKeyPath, storageKeyPath: AnyKeyPath) {
    let state = ThreadLocalState.current
    guard var request = state.pointee.probe, request.found == nil, keyPath == request.keyPath else {
      return
    }
    request.found = request.base.distance(to: storage)
    request.storageKeyPath = storageKeyPath
    state.pointee.probe = request
  }

  /// Reads `keyPath` of `object` with `read` and returns the offset of the ``Observed`` storage
  /// behind it, or `nil` if the property has none.
  static func offset(
    of keyPath: AnyKeyPath, in object: AnyObject, reading read: (AnyObject) -> Any
  ) -> Int? {
    probe(keyPath, in: object, reading: read)?.found
  }

  /// The name of the ``Observed`` property `keyPath` reads, as `Contact.nickname`, or `nil` if
  /// it is not one (for messages about a key path the runtime cannot name).
  static func propertyName(
    of keyPath: AnyKeyPath, in object: AnyObject, reading read: (AnyObject) -> Any
  ) -> String? {
    // The storage's key path names the wrapper's stored property: `\Contact._nickname`.
    guard let storage = probe(keyPath, in: object, reading: read)?.storageKeyPath else {
      return nil
    }
    var name = String(describing: storage)
    if name.hasPrefix("\\") { name.removeFirst() }
    guard let dot = name.lastIndex(of: "."), name[name.index(after: dot)...].hasPrefix("_") else {
      return nil
    }
    name.remove(at: name.index(after: dot))
    return name
  }

  /// Reads `keyPath` of `object` with `read` while probing; what the probe found, if anything.
  private static func probe(
    _ keyPath: AnyKeyPath, in object: AnyObject, reading read: (AnyObject) -> Any
  ) -> Request? {
    let state = ThreadLocalState.current
    let saved = state.pointee.probe
    state.pointee.probe = Request(
      base: UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque()), keyPath: keyPath)
    active.add(1, ordering: .relaxed)
    let value = read(object)
    active.subtract(1, ordering: .relaxed)
    let found = state.pointee.probe
    state.pointee.probe = saved
    // The value read may be the last reference to something; let it go after the probe.
    withExtendedLifetime(value) {}
    return found?.found == nil ? nil : found
  }
}
