import KVOLite
import KVOLiteTestSupport
import Synchronization
import Testing

/// The contract of ``ObservationToken/invalidate()`` against deliveries on other threads: it
/// returns only after a delivery in flight elsewhere has finished; called from inside a handler
/// (or a `deinit` a handler causes), it does not wait, so it never deadlocks.
@Suite("Invalidation racing deliveries")
struct InvalidationTests {
  @Test("invalidate() returns only after a delivery in flight on another thread has finished")
  func waitsForDeliveryInFlight() {
    let person = Person()
    let entered = Flag()
    let invalidating = Flag()
    let exited = Flag()
    let token = person.observe(\.age) { _, _ in
      entered.set()
      // Stay in the handler until the other thread has started invalidating, and a little after.
      while !invalidating.isSet {}
      var spin = 0
      while spin < 100_000 { spin = opaqueIncrement(spin) }
      exited.set()
    }
    let exitedWhenInvalidateReturned = Flag()
    race(workers: 2) { worker in
      if worker == 0 {
        person.age = 1
      } else {
        while !entered.isSet {}
        invalidating.set()
        token.invalidate()
        if exited.isSet { exitedWhenInvalidateReturned.set() }
      }
    }
    #expect(exitedWhenInvalidateReturned.isSet)
  }

  @Test("two invalidate() calls at once each return only after the delivery in flight has finished")
  func bothInvalidationsWait() {
    let person = Person()
    let entered = Flag()
    let invalidating = [Flag(), Flag()]
    let exited = Flag()
    let token = person.observe(\.age) { _, _ in
      entered.set()
      // Stay until both threads have started invalidating, and a little after.
      while !invalidating.allSatisfy(\.isSet) {}
      var spin = 0
      while spin < 100_000 { spin = opaqueIncrement(spin) }
      exited.set()
    }
    let returnedEarly = Counter()
    race(workers: 3) { worker in
      if worker == 0 {
        person.age = 1
      } else {
        while !entered.isSet {}
        invalidating[worker - 1].set()
        token.invalidate()
        if !exited.isSet { returnedEarly.increment() }
      }
    }
    #expect(returnedEarly.count == 0)
  }

  @Test("handlers on two threads invalidating each other's observations do not deadlock")
  func crossInvalidationFromHandlers() {
    for _ in 0..<50 {
      let person = Person()
      let victims = Locked<[ObservationToken]>([])
      let bothInside = Barrier(count: 2)
      let bothDone = Barrier(count: 2)
      let killer = person.observe(\.age) { _, _ in
        bothInside.arriveAndWait()
        victims.withLock { $0.popLast() }?.invalidate()
        bothDone.arriveAndWait()
      }
      let killed = Counter()
      victims.withLock {
        $0 = (0..<2).map { _ in person.observe(\.age) { _, _ in killed.increment() } }
      }
      race(workers: 2) { worker in person.age = worker }
      // Each victim was invalidated while both deliveries were in flight.
      #expect(killed.count == 0)
      _ = killer
    }
  }

  @Test("a handler capturing unowned self is never called after the owner invalidated and left")
  func unownedSelf() {
    for round in 0..<200 {
      let person = Person()
      let watcher = Locked<Watcher?>(Watcher(person))
      race(workers: 2) { worker in
        if worker == 0 {
          for value in 0..<300 { person.age = value }
        } else {
          let owned = watcher.withLock { $0! }
          // Let some deliveries happen first (the setter may also be done already).
          var spins = 0
          while owned.seen == 0, spins < 10_000 { spins += 1 }
          owned.stop()
          watcher.withLock { $0 = nil }
          // `owned` is the last reference: the watcher is deallocated here, while the other
          // thread may still be setting. A handler called now would crash on `unowned self`.
        }
      }
      #expect(watcher.withLock { $0 } == nil, "round \(round)")
    }
  }

  @Test("no handler call starts after a deinit that invalidated has finished")
  func invalidatedFromDeinit() {
    let violations = Counter()
    for _ in 0..<200 {
      let person = Person()
      let finished = Flag()
      let holder = Locked<SelfStopping?>(
        SelfStopping(person, finished: finished, violations: violations))
      race(workers: 2) { worker in
        if worker == 0 {
          for value in 0..<300 { person.age = value }
        } else {
          holder.withLock { $0 = nil }
        }
      }
    }
    #expect(violations.count == 0)
  }
}

/// An object that observes with `unowned self` and stops (invalidates) before it goes.
private final class Watcher: @unchecked Sendable {
  private let deliveries = Atomic<Int>(0)
  private var token: ObservationToken?

  init(_ person: Person) {
    token = person.observe(\.age) { [unowned self] _, _ in
      self.deliveries.add(1, ordering: .relaxed)
    }
  }

  var seen: Int { deliveries.load(ordering: .relaxed) }

  func stop() { token?.invalidate() }
}

/// An object whose `deinit` invalidates its observation, then records that it finished; its
/// handler counts calls that start after that.
private final class SelfStopping: @unchecked Sendable {
  private var token: ObservationToken?
  private let finished: Flag

  init(_ person: Person, finished: Flag, violations: Counter) {
    self.finished = finished
    token = person.observe(\.age) { _, _ in
      if finished.isSet { violations.increment() }
    }
  }

  deinit {
    token?.invalidate()
    finished.set()
  }
}

/// A flag set once, read from any thread.
final class Flag: Sendable {
  private let value = Atomic<Bool>(false)
  func set() { value.store(true, ordering: .releasing) }
  var isSet: Bool { value.load(ordering: .acquiring) }
}

/// Keeps a busy loop from being optimized away.
@inline(never)
func opaqueIncrement(_ value: Int) -> Int { value + 1 }
