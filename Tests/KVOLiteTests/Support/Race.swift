import Foundation
import Synchronization

/// Runs `body(worker)` on `workers` threads at once and returns when all are done.
///
/// Each worker is a thread of its own (`concurrentPerform` runs no more iterations at once than
/// there are cores), and the workers start behind a barrier: each waits until all have
/// arrived, so that their bodies really overlap instead of running one after the other as
/// threads happen to be scheduled.
func race(workers: Int = 4, _ body: @escaping @Sendable (Int) -> Void) {
  let barrier = Barrier(count: workers)
  let finished = DispatchSemaphore(value: 0)
  for worker in 0..<workers {
    Thread {
      barrier.arriveAndWait()
      body(worker)
      finished.signal()
    }.start()
  }
  for _ in 0..<workers { finished.wait() }
}

/// A one-shot barrier for a fixed number of threads.
final class Barrier: Sendable {
  private let remaining: Atomic<Int>

  init(count: Int) {
    remaining = Atomic(count)
  }

  func arriveAndWait() {
    remaining.subtract(1, ordering: .acquiringAndReleasing)
    while remaining.load(ordering: .acquiring) > 0 { sched_yield() }
  }
}
