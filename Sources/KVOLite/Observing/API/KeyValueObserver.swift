import Synchronization

/// An observer of the classic, Foundation-shaped observing API:
/// ``KeyValueObservable/addObserver(_:forKeyPath:options:context:)`` registers it, and it
/// receives every change in ``observeValue(forKeyPath:of:change:context:)``.
///
/// Prefer ``KeyValueObservable/observe(_:options:changeHandler:)-(String,_,_)`` in new code: its
/// token ends the observation when released. This API exists so that code written against
/// `NSObject`'s `addObserver`/`observeValue`/`removeObserver` ports with few changes.
public protocol KeyValueObserver: AnyObject {
  /// Called for every change of a key path this observer was added for, on the thread that
  /// made the change, after it (before it for a `.prior` notification).
  ///
  /// - Parameters:
  ///   - keyPath: The key path as it was given to `addObserver`.
  ///   - object: The observed object.
  ///   - change: The change, with what the registration's options asked for.
  ///   - context: The context given to `addObserver`, to tell registrations apart.
  func observeValue(
    forKeyPath keyPath: String, of object: any KeyValueObservable, change: KeyValueChange<Any?>,
    context: UnsafeMutableRawPointer?)
}

/// One registration of the classic API, kept by the observed object's registrar.
///
/// Its one state: *registering* (its observation exists, but it is not in the registrar's list
/// yet: a removal could not find it, so its notifications are dropped), *kept* (in the list:
/// notified), *removed* (taken out of the list; its token is ended next). The registrar's
/// transitions (``RegistrarContext/addClassic(_:)``, ``RegistrarContext/removeClassic(where:)``
/// and its end) move it, under the object's property lock; its handler reads it without a
/// lock before each notification.
final class ClassicRegistration: @unchecked Sendable {
  // @unchecked: the context is an opaque tag, compared and handed back, never dereferenced;
  // `token` is set once, before the registration is shared; `phase` is atomic.
  let observer: ObjectIdentifier
  let keyPath: String
  let context: UnsafeMutableRawPointer?
  /// The observation, set once it is registered (before the registrar keeps it).
  var token: ObservationToken?
  private let phase = Atomic<UInt8>(Phase.registering.rawValue)

  enum Phase: UInt8 { case registering, kept, removed }

  init(observer: ObjectIdentifier, keyPath: String, context: UnsafeMutableRawPointer?) {
    self.observer = observer
    self.keyPath = keyPath
    self.context = context
  }

  /// Whether notifications reach the observer: the registration is kept.
  var isKept: Bool { phase.load(ordering: .acquiring) == Phase.kept.rawValue }

  /// Moves to `next`: only the registrar's transitions call it.
  func move(to next: Phase) { phase.store(next.rawValue, ordering: .releasing) }
}
