import Synchronization

/// Counts calls from any thread.
public final class Counter: Sendable {
  private let value = Atomic<Int>(0)

  /// A counter at zero.
  public init() {}

  /// Adds one.
  public func increment() { value.add(1, ordering: .relaxed) }

  /// Adds `count`.
  public func add(_ count: Int) { value.add(count, ordering: .relaxed) }

  /// The count so far.
  public var count: Int { value.load(ordering: .relaxed) }
}
