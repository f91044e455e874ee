import KVOLite
import KVOLiteTestSupport
import Testing

// The Threads and lifetimes article's model, shared between tasks in Swift 6.

final class Tally: KeyValueObservable, @unchecked Sendable {
  let observationRegistrar = ObservationRegistrar()
  @Observed var value = 0
}

@Suite("A model shared between tasks")
struct SendableModelTests {
  @Test(
    "an @unchecked Sendable model is set from several tasks; each set notifies once, on the setting thread"
  )
  func sharedBetweenTasks() async {
    let notifications = Locked(0)
    let observed = Tally()
    let token = observed.observe(\.value, options: [.new]) { _, _ in
      notifications.withLock { $0 += 1 }
    }
    let tally = observed
    await withTaskGroup(of: Void.self) { group in
      for task in 0..<4 {
        group.addTask { tally.value = task }
      }
    }
    #expect(notifications.withLock { $0 } == 4)
    #expect((0..<4).contains(tally.value))
    token.invalidate()
  }
}
