import Foundation
import KVOLiteLocking

/// An observation of a string key path whose rest, from some object on, is registered with
/// that object's own `addObserver`, as Foundation registers nested key paths: the object may
/// take the registration over and pass it on (an array controller's arranged objects, see
/// ``KeyValueObservable/addObserver(_:forKeyPath:options:context:)``), or be of a subclass of
/// the type its relationship declares, whose keys only it knows (`garage.vehicle.seats` with a
/// `Bus` there).
///
/// The path is split where the declared types stop: the prefix (`vehicle`), observed as any
/// chain is, and the rest (`seats`), registered on the object the prefix reads (the
/// intermediate) for a relay that passes each change it reports on as a change of the whole
/// path. A change of the prefix is a setting of the whole path (old and new read by key-value
/// coding, which looks keys up on the object's own class), after which the registration moves
/// to the new intermediate; one the rest cannot be registered on is left without one (its
/// changes are not heard) until the prefix changes again.
///
/// Thread safety: the state (``ForwardingStateMachine``) is behind a lock that is never held while
/// other code runs; one thread at a time moves the registration. ``invalidate()`` ends the
/// prefix's observation and the registration, and waits for handler calls in progress on
/// other threads (unless called from inside a delivery), as every token does.
final class ForwardedObservation<Root: KeyValueObservable>: Observation, @unchecked Sendable {
  // @unchecked: the mutable state is behind `lock`; the rest is immutable.
  private weak var root: Root?
  private let prefix: String
  private let rest: String
  private let keyPath: String
  private let options: ObservingOptions
  private let handler: (KeyValueChange<Any?>) -> Void
  private let lock = Lock()
  private var state = ForwardingStateMachine()
  /// Handler calls in progress, which ``invalidate()`` closes and waits for.
  private let calls = InFlightGate()
  /// The prefix's observation; set once registered.
  private var prefixToken: ObservationToken?
  /// What the intermediate is told about: it relays to this observation.
  private let relay = Relay()

  private init(
    root: Root, prefix: String, rest: String, keyPath: String, options: ObservingOptions,
    handler: @escaping (KeyValueChange<Any?>) -> Void
  ) {
    self.root = root
    self.prefix = prefix
    self.rest = rest
    self.keyPath = keyPath
    self.options = options
    self.handler = handler
    super.init()
    relay.observation = self
  }

  /// Starts observing `keyPath` of `root`, whose part `prefix` the declared types resolve and
  /// whose `rest` is registered on the object the prefix reads. The `.initial` notification
  /// is the caller's, sent by `sendInitial` (see ``KeyValueObservable/register(_:options:handler:)``).
  ///
  /// - Throws: `unresolved` (the declared type's error) if the prefix reads no object now,
  ///   and what that object's `addObserver` throws for the rest. Nothing is registered then.
  static func start(
    on root: Root, keyPath: String, prefix: String, rest: String, unresolved: KeyValueError,
    options: ObservingOptions, handler: @escaping (KeyValueChange<Any?>) -> Void
  ) throws(KeyValueError) -> (token: ObservationToken, sendInitial: () -> Void) {
    guard (try root.value(forKeyPath: prefix)) is any KeyValueObservable else { throw unresolved }
    let observation = ForwardedObservation(
      root: root, prefix: prefix, rest: rest, keyPath: keyPath, options: options,
      handler: handler)
    // The prefix first, so that a change of it during the move below moves it again.
    let (prefixToken, _) = try root.register(prefix, options: [.prior]) {
      [weak observation] change in observation?.prefixChanged(change)
    }
    observation.lock.withLock { observation.prefixToken = prefixToken }
    do {
      try observation.move()
    } catch {
      observation.invalidate()
      throw error.continued(after: prefix)
    }
    return (
      ObservationToken(observation),
      { [weak observation] in
        guard options.contains(.initial), let observation, let root = observation.root else {
          return
        }
        let new: Any?? = options.contains(.new) ? .some(observation.read(root)) : nil
        observation.call { observation.handler(KeyValueChange(kind: .setting, newValue: new)) }
      }
    )
  }

  /// The whole path's value now, by key-value coding; `nil` where it cannot be read (the
  /// intermediate lacks the rest).
  private func read(_ root: Root) -> Any? {
    (try? root.value(forKeyPath: keyPath)) ?? nil
  }

  /// The prefix changed (or is about to, `isPrior`).
  private func prefixChanged(_ change: KeyValueChange<Any?>) {
    guard let root else { return }
    let thread = ThreadIdentity.current
    if change.isPrior {
      guard options.contains(.old) || options.contains(.prior) else { return }
      let old = read(root)
      lock.withLock { _ = state.pushOld(old, thread: thread) }
      if options.contains(.prior) {
        let kept: Any?? = options.contains(.old) ? .some(old) : nil
        call { handler(KeyValueChange(kind: .setting, oldValue: kept, isPrior: true)) }
      }
      return
    }
    try? move()
    var old: Any?? = nil
    if case .old(let kept) = lock.withLock({ state.popOld(thread: thread) }) { old = .some(kept) }
    let new: Any?? = options.contains(.new) ? .some(read(root)) : nil
    call {
      handler(
        KeyValueChange(
          kind: .setting, oldValue: options.contains(.old) ? old ?? .some(nil) : nil,
          newValue: new))
    }
  }

  /// Moves the registration of the rest to the intermediate as it is now, unless another
  /// thread is moving it (then that thread looks again). Registering and removing run with no
  /// lock held.
  ///
  /// - Throws: what the intermediate's `addObserver` throws (its first failure), after the
  ///   move is done.
  private func move() throws(KeyValueError) {
    guard case .move = lock.withLock({ state.beginMove() }) else { return }
    var failure: KeyValueError?
    var again = true
    while again {
      let target = root.flatMap { try? $0.value(forKeyPath: prefix) } as? any KeyValueObservable
      guard case .step(let removeFrom, let register) = lock.withLock({ state.move(to: target) })
      else { return }
      if let removeFrom = removeFrom as? any KeyValueObservable {
        removeFrom.removeObserver(relay, forKeyPath: rest)
      }
      var placed: AnyObject?
      if register, let target {
        do {
          try target.addObserver(
            relay, forKeyPath: rest, options: options.subtracting(.initial), context: nil)
          placed = target
        } catch {
          failure = failure ?? error
        }
      }
      switch lock.withLock({ state.finishMove(placed: placed) }) {
      case .again: again = true
      case .remove(let leftover as any KeyValueObservable):
        leftover.removeObserver(relay, forKeyPath: rest)
        again = false
      default: again = false
      }
    }
    if let failure { throw failure }
  }

  /// Calls the handler through `body`, unless the observation ended; inside `calls`, so that
  /// ``invalidate()`` can wait for it.
  fileprivate func call(_ body: () -> Void) {
    guard calls.enter() else { return }
    defer { calls.leave() }
    DeliveryScope.run(body)
  }

  override func invalidate() {
    let (ended, token) = lock.withLock { () -> (ForwardingStateMachine.Action, ObservationToken?) in
      defer { prefixToken = nil }
      return (state.end(), prefixToken)
    }
    token?.invalidate()
    if case .remove(let leftover as any KeyValueObservable) = ended {
      leftover.removeObserver(relay, forKeyPath: rest)
    }
    _ = calls.closeAndWait()
  }

  /// The observer registered on the intermediate: it passes every change on, as a change of
  /// the whole path. Held by the observation (registrations hold their observers weakly).
  private final class Relay: KeyValueObserver {
    /// Set once, before the relay is registered anywhere.
    weak var observation: ForwardedObservation?

    func observeValue(
      forKeyPath keyPath: String, of object: any KeyValueObservable,
      change: KeyValueChange<Any?>, context: UnsafeMutableRawPointer?
    ) {
      guard let observation else { return }
      observation.call { observation.handler(change) }
    }
  }
}
