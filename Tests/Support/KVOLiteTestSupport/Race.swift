import Foundation
import Synchronization

/// Runs `body(worker)` on `workers` threads at once and returns when all have exited.
///
/// Each worker is a thread of its own, and the workers start behind a barrier (each waits until
/// all have arrived), so that their bodies overlap instead of running one after the other as
/// threads happen to be scheduled. The threads are joined, and each lets go of `body` before it
/// exits, so when this returns nothing the workers captured is still held by them.
public func race(workers: Int = 4, _ body: @escaping @Sendable (_ worker: Int) -> Void) {
  let barrier = Barrier(count: workers)
  let threads = (0..<workers).map { worker in
    spawn {
      barrier.arriveAndWait()
      body(worker)
    }
  }
  for thread in threads { join(thread) }
}

/// Starts a thread running `body`, which the thread releases before it exits.
private func spawn(_ body: @escaping @Sendable () -> Void) -> pthread_t {
  final class Box {
    let body: @Sendable () -> Void
    init(_ body: @escaping @Sendable () -> Void) { self.body = body }
  }
  let box = Unmanaged.passRetained(Box(body)).toOpaque()
  #if canImport(Darwin)
    var thread: pthread_t?
  #else
    var thread = pthread_t()
  #endif
  let status = pthread_create(
    &thread, nil,
    { argument in
      let box = Unmanaged<Box>.fromOpaque(argument!).takeRetainedValue()
      box.body()
      return nil
    }, box)
  precondition(status == 0, "kvolite-stress: pthread_create failed (\(status))")
  #if canImport(Darwin)
    return thread!
  #else
    return thread
  #endif
}

private func join(_ thread: pthread_t) {
  pthread_join(thread, nil)
}

/// A one-shot barrier for a fixed number of threads.
public final class Barrier: Sendable {
  private let remaining: Atomic<Int>

  /// A barrier for `count` threads.
  public init(count: Int) {
    remaining = Atomic(count)
  }

  /// Returns once every thread has arrived.
  public func arriveAndWait() {
    remaining.subtract(1, ordering: .acquiringAndReleasing)
    while remaining.load(ordering: .acquiring) > 0 { sched_yield() }
  }
}

/// A barrier that a fixed number of threads pass together, any number of times.
public final class RoundBarrier: Sendable {
  private let count: Int
  /// Arrivals in the current round (low 32 bits) and the round number (high bits).
  private let state = Atomic<Int>(0)

  /// A barrier for `count` threads.
  public init(count: Int) {
    self.count = count
  }

  /// Returns once every thread has arrived in this round.
  public func arriveAndWait() {
    let arrived = state.add(1, ordering: .acquiringAndReleasing).newValue
    let round = arrived >> 32
    if arrived & 0xFFFF_FFFF == count {
      // The last to arrive starts the next round.
      state.store((round + 1) << 32, ordering: .releasing)
      return
    }
    while state.load(ordering: .acquiring) >> 32 == round { sched_yield() }
  }
}
