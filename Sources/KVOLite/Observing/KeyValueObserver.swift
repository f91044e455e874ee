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
struct ClassicRegistration: @unchecked Sendable {
  // @unchecked: the context is an opaque tag, compared and handed back, never dereferenced.
  let observer: ObjectIdentifier
  let keyPath: String
  let context: UnsafeMutableRawPointer?
  let token: ObservationToken
}

/// Opened once a classic registration is kept: its notifications are dropped until then.
final class ClassicGate: Sendable {
  private let opened = Atomic<Bool>(false)

  var isOpen: Bool { opened.load(ordering: .acquiring) }

  func open() { opened.store(true, ordering: .releasing) }
}
