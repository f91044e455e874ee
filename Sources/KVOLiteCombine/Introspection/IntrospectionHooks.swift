import KVOLiteLocking
import Synchronization

/// The enabled `_Introspection` objects, process-wide.
///
/// `subscribe(_:)` checks ``isActive`` (one atomic load) before anything else, so that no hook
/// costs nothing. The set is behind a lock; the hooks are copied out and called after
/// unlocking.
@usableFromInline
enum IntrospectionHooks {
  /// Whether any hook is enabled.
  @usableFromInline static let active = Atomic<Bool>(false)
  private static let registry = Registry()

  /// The set of hooks, behind a lock.
  private final class Registry: @unchecked Sendable {
    // @unchecked: `hooks` is behind `lock`.
    let lock = Lock()
    var hooks: [ObjectIdentifier: any _Introspection] = [:]
  }

  @inlinable static var isActive: Bool { active.load(ordering: .acquiring) }

  /// The enabled hooks, in no particular order; empty when none is.
  static var current: [any _Introspection] {
    guard isActive else { return [] }
    return registry.lock.withLock { Array(registry.hooks.values) }
  }

  static func enable(_ hook: any _Introspection) {
    registry.lock.withLock {
      registry.hooks[ObjectIdentifier(hook)] = hook
      active.store(true, ordering: .releasing)
    }
  }

  static func disable(_ hook: any _Introspection) {
    let removed = registry.lock.withLock { () -> (any _Introspection)? in
      defer { active.store(!registry.hooks.isEmpty, ordering: .releasing) }
      return registry.hooks.removeValue(forKey: ObjectIdentifier(hook))
    }
    withExtendedLifetime(removed) {}
  }

  static func isEnabled(_ hook: any _Introspection) -> Bool {
    registry.lock.withLock { registry.hooks[ObjectIdentifier(hook)] != nil }
  }
}
