import KVOLiteLocking
import Synchronization

/// The per-object storage of observations.
///
/// Every ``KeyValueObservable`` object owns one, as a constant:
/// `let observationRegistrar = ObservationRegistrar()`. It holds nothing until the object is
/// first observed; then it creates its context, which keeps, for each declared key, the list
/// of observers in registration order (its `RegistrarContext`).
///
/// - Thread safety: all of it may be used from any thread. Its lock is held only to copy and
///   replace lists; observers are always called after it is released.
/// - Lifetime: the object owns its registrar, and nothing else should. When the object is
///   released, the registrar's `deinit` ends every observation in it: their tokens become inert,
///   and chains that started at the object detach from the objects further along. (A registrar
///   kept alive elsewhere only delays that clean-up: nothing can be delivered for a released
///   object.) Observers refer to the context, never to the object or the registrar.
/// - Name: Swift's Observation module has a type of the same name. In a file that imports both
///   modules, the unqualified name means this type (KVOLite shadows Observation's, silently);
///   write `Observation.ObservationRegistrar` for Swift's. `@Observable` is unaffected: its
///   expansion names Swift's type in full. A class that is both ``KeyValueObservable`` and
///   `Observable` declares only this registrar: Swift's is made on the first tracked read and
///   kept in this one's context (see ``Observed``).
public final class ObservationRegistrar: @unchecked Sendable {
  // @unchecked: the only state is the atomic pointer to an immutable-once, thread-safe context.

  /// The context, once created: a +1 reference owned by the registrar, published once with a
  /// compare-and-swap and read with an acquiring load. (A raw pointer rather than
  /// `AtomicLazyReference`, whose `load()` is not inlinable and looks up generic metadata on
  /// every call: this is read on every observed set.)
  private let contextPointer = Atomic<UnsafeMutableRawPointer?>(nil)

  /// Creates an empty registrar.
  public init() {}

  deinit {
    guard let pointer = contextPointer.load(ordering: .acquiring) else { return }
    let context = Unmanaged<RegistrarContext>.fromOpaque(pointer)
    context._withUnsafeGuaranteedRef { $0.tearDown() }
    context.release()
  }

  /// The context, if the object was ever observed, not retained: valid while the caller holds
  /// the object (which holds the registrar, which holds the context).
  @usableFromInline
  var existingContextUnretained: Unmanaged<RegistrarContext>? {
    contextPointer.load(ordering: .acquiring).map { Unmanaged.fromOpaque($0) }
  }

  /// The context, if the object was ever observed.
  @usableFromInline
  var existingContext: RegistrarContext? {
    contextPointer.load(ordering: .acquiring).map {
      Unmanaged<RegistrarContext>.fromOpaque($0).takeUnretainedValue()
    }
  }

  /// The context of `object` (whose registrar this is), created on first use with the table of
  /// `object`'s class.
  func context(of object: any KeyValueObservable) -> RegistrarContext {
    if let existing = existingContext { return existing }
    let made = Unmanaged.passRetained(
      RegistrarContext(
        objectAddress: Unmanaged.passUnretained(object as AnyObject).toOpaque(),
        table: KeyTable.of(type(of: object))))
    let (exchanged, winner) = contextPointer.compareExchange(
      expected: nil, desired: made.toOpaque(), ordering: .acquiringAndReleasing)
    if exchanged { return made.takeUnretainedValue() }
    made.release()
    return Unmanaged<RegistrarContext>.fromOpaque(winner!).takeUnretainedValue()
  }

  /// How many triggers (direct observations and links of chains) the registrar holds. For
  /// tests and diagnostics: zero means nothing observes the object.
  package var triggerCount: Int { existingContext?.triggerCount ?? 0 }
}
