import Dispatch

/// Runs `body(worker)` on `workers` threads at once and returns when all are done.
func race(workers: Int = 4, _ body: @Sendable (Int) -> Void) {
  DispatchQueue.concurrentPerform(iterations: workers, execute: body)
}
