import Synchronization

/// The observers of one key of one object, in registration order: an immutable snapshot.
///
/// A registrar replaces a key's list whenever an observer comes or goes, so a delivery can
/// iterate the list it took without holding any lock and without seeing observers added during
/// it. A delivery does not retain its list: it counts itself in the list's in-flight count (the
/// increment under the registrar's lock, the decrement after its last use of the list, without
/// the lock), and the registrar keeps every list whose count is not zero, current or replaced
/// ("retired"), until the count drops. That count is also what
/// ``ObservationToken/invalidate()`` waits on.
///
/// One allocation: the triggers are stored after the header (a `ManagedBuffer`).
@usableFromInline
final class ObserverList: ManagedBuffer<ObserverList.Header, Trigger> {
  // Immutable but for the in-flight count, which is only accessed atomically; shared between
  // threads by the registrar context, which is `@unchecked Sendable` for that reason.

  @usableFromInline
  struct Header {
    @usableFromInline let count: Int
    /// A set needs a will-phase: some observer wants a prior notification, or is a link of a
    /// path observation (which reads its old value through the chain at will-time).
    @usableFromInline let needsWillPhase: Bool
    /// Some typed observer wants the old value.
    @usableFromInline let wantsOld: Bool
    /// Which option combinations typed observers use: bit
    /// `(wantsOld ? 2 : 0) + (wantsNew ? 1 : 0)` is set for each, so that a delivery builds only
    /// the change records someone needs.
    @usableFromInline let recordKinds: UInt8
    /// Deliveries iterating the list now; accessed only through ``ObserverList/inFlight``.
    @usableFromInline var inFlightStorage = 0
  }

  /// Makes a list of the triggers of `parts`, in order (already in registration order).
  static func make(_ parts: UnsafeBufferPointer<Trigger>...) -> ObserverList {
    let count = parts.reduce(0) { $0 + $1.count }
    let list = create(minimumCapacity: count) { _ in
      Header(
        count: count,
        needsWillPhase: parts.contains { $0.contains { $0.wantsPrior || !$0.isTyped } },
        wantsOld: parts.contains { $0.contains { $0.isTyped && $0.wantsOld } },
        recordKinds: parts.reduce(0) { kinds, part in
          part.reduce(kinds) { kinds, trigger in
            kinds | 1 << ((trigger.wantsOld ? 2 : 0) + (trigger.wantsNew ? 1 : 0))
          }
        })
    }
    list.withUnsafeMutablePointerToElements { elements in
      var next = elements
      for part in parts {
        _ = UnsafeMutableBufferPointer(start: next, count: part.count).initialize(from: part)
        next += part.count
      }
    }
    return unsafeDowncast(list, to: ObserverList.self)
  }

  /// A list of one trigger.
  static func make(_ trigger: Trigger) -> ObserverList {
    withUnsafePointer(to: trigger) { make(UnsafeBufferPointer(start: $0, count: 1)) }
  }

  deinit {
    _ = withUnsafeMutablePointers { header, elements in
      elements.deinitialize(count: header.pointee.count)
    }
  }

  // The header is read through its pointer: reading `header` would check exclusivity at run
  // time, and it never changes but for the atomic count.
  @inlinable var count: Int { withUnsafeMutablePointerToHeader { $0.pointee.count } }
  @inlinable var needsWillPhase: Bool {
    withUnsafeMutablePointerToHeader { $0.pointee.needsWillPhase }
  }
  @inlinable var wantsOld: Bool { withUnsafeMutablePointerToHeader { $0.pointee.wantsOld } }
  @inlinable var recordKinds: UInt8 { withUnsafeMutablePointerToHeader { $0.pointee.recordKinds } }

  /// The in-flight count, as an atomic in the header.
  @inlinable
  var inFlight: UnsafeMutablePointer<Atomic<Int>> {
    withUnsafeMutablePointerToHeader { header in
      (UnsafeMutableRawPointer(header) + MemoryLayout<Header>.offset(of: \.inFlightStorage)!)
        .assumingMemoryBound(to: Atomic<Int>.self)
    }
  }

  /// Runs `body` over the triggers, not retained (the list holds them).
  @inlinable
  func withTriggers<Result>(_ body: (UnsafeBufferPointer<Trigger>) throws -> Result) rethrows
    -> Result
  {
    try withUnsafeMutablePointers { header, elements in
      try body(UnsafeBufferPointer(start: elements, count: header.pointee.count))
    }
  }

  /// The first trigger (a list is never empty).
  var first: Trigger { withTriggers { $0[0] } }

  /// A new list with `trigger` in its place by registration order.
  func inserting(_ trigger: Trigger) -> ObserverList {
    withTriggers { triggers in
      var position = triggers.endIndex
      while position > 0, triggers[position - 1].order > trigger.order { position -= 1 }
      return withUnsafePointer(to: trigger) { inserted in
        .make(
          UnsafeBufferPointer(rebasing: triggers[..<position]),
          UnsafeBufferPointer(start: inserted, count: 1),
          UnsafeBufferPointer(rebasing: triggers[position...]))
      }
    }
  }

  /// A new list without `trigger`, `nil` if it would be empty; `self` if `trigger` is not here.
  func removing(_ trigger: Trigger) -> ObserverList? {
    withTriggers { triggers -> ObserverList? in
      guard let position = triggers.lastIndex(where: { $0 === trigger }) else { return self }
      guard triggers.count > 1 else { return nil }
      return .make(
        UnsafeBufferPointer(rebasing: triggers[..<position]),
        UnsafeBufferPointer(rebasing: triggers[(position + 1)...]))
    }
  }

  func contains(_ trigger: Trigger) -> Bool {
    withTriggers { $0.contains { $0 === trigger } }
  }
}
