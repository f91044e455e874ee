import Synchronization

/// A reference set at most once and read without a lock: the contract of the standard
/// library's `AtomicLazyReference`, with a `load()` the compiler inlines and specializes.
/// (`AtomicLazyReference.load()` is not inlinable: every call goes through its generic entry
/// point and looks up the type's metadata, which cost about a tenth of `package-editor`'s
/// time, reading a model's Swift Observation registrar on every get.)
///
/// The reference is retained once stored and released with the `OnceReference`. A load that
/// returns it does not retain it: the caller keeps the owner of the `OnceReference` alive while
/// it uses the object, as it does for any stored property. `~Copyable`: it lives where its
/// owner lives (a stored property of a class).
package struct OnceReference<Object: AnyObject>: ~Copyable, @unchecked Sendable {
  // @unchecked: the only state is an atomic pointer to an object stored once.
  /// The object, retained once (+1), or `nil`.
  private let pointer = Atomic<UnsafeMutableRawPointer?>(nil)

  /// An empty reference.
  package init() {}

  deinit {
    guard let stored = pointer.load(ordering: .acquiring) else { return }
    Unmanaged<Object>.fromOpaque(stored).release()
  }

  /// The object, if one was stored (an acquiring load: what the storing thread did before
  /// storing it is visible).
  @inline(__always)
  package func load() -> Object? {
    guard let stored = pointer.load(ordering: .acquiring) else { return nil }
    return Unmanaged<Object>.fromOpaque(stored).takeUnretainedValue()
  }

  /// Stores `object` if nothing is stored yet, and returns what is stored then: `object`, or
  /// the object another thread stored first (`object` is then not kept).
  package func storeIfNil(_ object: Object) -> Object {
    let desired = Unmanaged.passRetained(object).toOpaque()
    let (exchanged, original) = pointer.compareExchange(
      expected: nil, desired: desired, ordering: .acquiringAndReleasing)
    if exchanged { return object }
    Unmanaged<Object>.fromOpaque(desired).release()
    return Unmanaged<Object>.fromOpaque(original!).takeUnretainedValue()
  }
}
