import KVOLiteLocking
import Synchronization

/// Finds where keys' ``Observed`` storage lies in their objects, and which keys a typed key
/// path reads, by reading it.
///
/// A key path to a property-wrapped property goes through the property's accessors, which
/// cannot say where the storage is, and the runtime cannot make such a key path from the
/// property's name. So KVOLite reads a key path once while this thread is "probing"; every
/// ``Observed`` getter that runs sees the probe and reports its object, its storage's address,
/// its own (wrapped) key path and the class that declares it. A declared key's storage is the
/// one whose getter reports the declared key path; a typed key path of several hops reads one
/// key per hop. A computed getter that reads other properties reports them too, which is why
/// reports are checked against the key path before they are believed (see ``KeyTable``).
/// Nothing is locked while the getter runs (it may be any computed property).
///
/// Getters check a process-wide count of probes in progress: one relaxed load. Only when it is
/// non-zero do they look at their thread's request, which the thread's record
/// (``ThreadIdentity``) points to while the probe runs.
@usableFromInline
enum StorageProbe {
  /// How many threads are probing now.
  @usableFromInline static let active = Atomic<Int>(0)

  /// What one ``Observed`` getter reported during a probe.
  struct Report {
    /// The object whose getter ran.
    let base: UnsafeRawPointer
    /// Where the property's storage is in that object.
    let offset: Int
    /// The property's key path, rooted at the class that declares the property.
    let keyPath: AnyKeyPath
    /// The class that declares the property.
    let declaringType: any KeyValueObservable.Type
    /// The object itself, kept alive, when the probe tracks changes (``Request/tracksChanges``):
    /// a getter may read objects it makes and releases, whose address `base` then outlives.
    var object: (any KeyValueObservable)? = nil
    /// The property's change counter when the getter read it, when the probe tracks changes
    /// (see ``StorageState``).
    var counter: UInt32 = 0
  }

  /// What a probing thread found so far.
  struct Request {
    /// Reports, in the order the getters ran (at most ``limit``).
    var reports: [Report] = []
    /// How many reports are kept: a getter that reads many properties (a computed property
    /// over a large graph) does not make the probe grow without bound.
    var limit = Request.defaultLimit
    static let defaultLimit = 64
    /// Whether each report keeps its object alive and its property's change counter, marking
    /// the property tracked: a reading that finds inputs links them, and must learn of a set
    /// made between the read and the link (see ``StorageState``).
    var tracksChanges = false
  }

  /// Whether some thread is probing.
  @inlinable
  static var isActive: Bool { active.load(ordering: .relaxed) != 0 }

  /// Called by ``Observed``'s getter while a probe is in progress anywhere.
  @usableFromInline
  static func report<Root: KeyValueObservable>(
    _ storage: UnsafeMutableRawPointer, of object: Root, keyPath: AnyKeyPath
  ) {
    guard let probe = ThreadIdentity.probe else { return }
    let request = probe.assumingMemoryBound(to: Request.self)
    guard request.pointee.reports.count < request.pointee.limit else { return }
    let base = UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque())
    var report = Report(
      base: base, offset: base.distance(to: storage), keyPath: keyPath, declaringType: Root.self)
    if request.pointee.tracksChanges {
      // The getter holds the property lock: the state is read and marked under it.
      report.object = object
      report.counter = StorageState.track(storage.assumingMemoryBound(to: UInt32.self))
    }
    // Appended in place: a copy of the request would copy every report so far.
    request.pointee.reports.append(report)
  }

  /// Runs `read` while probing, with no limit on the reports, each keeping its object alive and
  /// its property's change counter: the value read and every ``Observed`` getter that ran, in
  /// order (see ``LinksObservation``). The reports' objects are released with the reports, by
  /// the caller, after any lock it takes for them.
  static func value<Value>(reading read: () -> Value) -> (value: Value, reports: [Report]) {
    var request = Request(limit: .max, tracksChanges: true)
    let value = probing(&request, read)
    return (value, request.reports)
  }

  /// Runs `read` with `request` as this thread's probe: the request lives on the caller's
  /// stack while the probe runs and the thread's record points to it (a probe inside the read,
  /// by a getter, saves and restores the pointer).
  private static func probing<Value>(_ request: inout Request, _ read: () -> Value) -> Value {
    #if DEBUG
      LockOrder.checkCallOut("a getter")
    #endif
    return withUnsafeMutablePointer(to: &request) { request in
      let saved = ThreadIdentity.probe
      ThreadIdentity.probe = UnsafeMutableRawPointer(request)
      active.add(1, ordering: .relaxed)
      defer {
        active.subtract(1, ordering: .relaxed)
        ThreadIdentity.probe = saved
      }
      return read()
    }
  }

  /// Reads `object` with `read` while probing; what the getters reported, in order, at most
  /// `limit` of them (enough for a key path of `limit` hops).
  static func reports(
    reading read: (AnyObject) -> Any, on object: AnyObject,
    limit: Int = Request.defaultLimit
  ) -> [Report] {
    var request = Request(limit: limit)
    let value = probing(&request) { read(object) }
    // The value read may be the last reference to something; let it go after the probe.
    withExtendedLifetime(value) {}
    return request.reports
  }

  /// Reads `keyPath` of `object` with `read` and returns the offset of the ``Observed`` storage
  /// behind it, or `nil` if the property has none.
  static func offset(
    of keyPath: AnyKeyPath, in object: AnyObject, reading read: (AnyObject) -> Any
  ) -> Int? {
    report(of: keyPath, in: object, reading: read)?.offset
  }

  /// The name of the ``Observed`` property `keyPath` reads, as `Contact.nickname`, or `nil` if
  /// it is not one (for messages about a key path the runtime cannot name).
  static func propertyName(
    of keyPath: AnyKeyPath, in object: AnyObject, reading read: (AnyObject) -> Any
  ) -> String? {
    // The runtime names the wrapper's stored property: `_nickname`.
    guard let report = report(of: keyPath, in: object, reading: read),
      let field = StoredFields.of(report.declaringType).first(where: { $0.offset == report.offset }
      ),
      field.name.hasPrefix("_")
    else { return nil }
    return "\(report.declaringType).\(field.name.dropFirst())"
  }

  /// The report of the ``Observed`` property of `object` that `keyPath` is, if it is one: its
  /// getter reported `keyPath` itself, or the same property from another root (a key path
  /// rooted at a subclass).
  private static func report(
    of keyPath: AnyKeyPath, in object: AnyObject, reading read: (AnyObject) -> Any
  ) -> Report? {
    let base = UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque())
    let found = reports(reading: read, on: object).filter { $0.base == base }
    return found.first { $0.keyPath == keyPath }
      ?? found.first { KeyPathComponents.samePath($0.keyPath, keyPath) }
  }
}
