import Dispatch
import KVOLiteTestSupport
import Synchronization
import Testing

@testable import KVOLiteBridge

/// The guard both sides of a two-way binding ask.
@Suite("EchoGuard")
struct EchoGuardTests {
  @Test("a value crosses unless it equals the last one that crossed")
  func crossing() {
    let echo = EchoGuard<String>()
    let answers = ["a", "a", "b", "a", "a", ""].map(echo.crossing)
    #expect(answers == [true, false, true, true, false, true])
  }

  @Test("the value a crossing replaces is released then, and the last one with the guard")
  func lifetime() {
    let log = ReleaseLog()
    var echo: EchoGuard<Tracked>? = EchoGuard<Tracked>()
    #expect(echo?.crossing(Tracked("a", log)) == true)
    #expect(echo?.crossing(Tracked("a", log)) == false)
    #expect(log.names == ["a"])
    #expect(echo?.crossing(Tracked("b", log)) == true)
    #expect(log.names == ["a", "a"])
    echo = nil
    #expect(log.names == ["a", "a", "b"])
  }

  @Test("a value's == runs without the guard's lock: an == that uses the guard does not deadlock")
  func equalityOutsideTheLock() {
    let echo = EchoGuard<Reentrant>()
    Reentrant.guardInUse = echo
    defer { Reentrant.guardInUse = nil }
    #expect(echo.crossing(Reentrant(1)))
    #expect(!echo.crossing(Reentrant(1)))
    #expect(echo.crossing(Reentrant(2)))
    #expect(!echo.crossing(Reentrant(2)))
  }

  @Test("of threads offering the same value at once, exactly one crosses")
  func concurrent() {
    let echo = EchoGuard<String>()
    let crossed = Atomic<Int>(0)
    DispatchQueue.concurrentPerform(iterations: 1_000) { _ in
      if echo.crossing("same") { crossed.add(1, ordering: .relaxed) }
    }
    #expect(crossed.load(ordering: .relaxed) == 1)
  }
}

/// The names of the ``Tracked`` values released so far, in order.
private final class ReleaseLog: Sendable {
  private let released = Mutex<[String]>([])
  var names: [String] { released.withLock { $0 } }
  func append(_ name: String) { released.withLock { $0.append(name) } }
}

/// A value that records its release.
private final class Tracked: Equatable, Sendable {
  let name: String
  let log: ReleaseLog

  init(_ name: String, _ log: ReleaseLog) {
    self.name = name
    self.log = log
  }

  deinit { log.append(name) }

  static func == (lhs: Tracked, rhs: Tracked) -> Bool { lhs.name == rhs.name }
}

/// A value whose `==` asks the guard under test something: it would deadlock if `==` ran
/// with the guard's lock held.
private struct Reentrant: Equatable {
  nonisolated(unsafe) static var guardInUse: EchoGuard<Reentrant>?
  let value: Int
  init(_ value: Int) { self.value = value }

  nonisolated(unsafe) static var comparing = false

  static func == (lhs: Reentrant, rhs: Reentrant) -> Bool {
    if !comparing, let guardInUse {
      // Once: the guard's own comparison would otherwise come back here.
      comparing = true
      defer { comparing = false }
      _ = guardInUse.crossing(Reentrant(lhs.value))
    }
    return lhs.value == rhs.value
  }
}
