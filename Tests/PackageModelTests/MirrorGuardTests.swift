import Dispatch
import PackageModel
import Synchronization
import Testing

/// The guard both pipes of a two-way mirror filter through.
@Suite("MirrorGuard")
struct MirrorGuardTests {
  @Test("a value crosses unless it equals the last one that crossed")
  func crossing() {
    let echo = MirrorGuard<String>()
    let answers = ["a", "a", "b", "a", "a", ""].map(echo.crossing)
    #expect(answers == [true, false, true, true, false, true])
  }

  @Test("the value a crossing replaces is released then, and the last one with the guard")
  func lifetime() {
    let log = ReleaseLog()
    var echo: MirrorGuard<Tracked>? = MirrorGuard<Tracked>()
    #expect(echo?.crossing(Tracked("a", log)) == true)
    #expect(echo?.crossing(Tracked("a", log)) == false)
    #expect(log.names == ["a"])
    #expect(echo?.crossing(Tracked("b", log)) == true)
    #expect(log.names == ["a", "a"])
    echo = nil
    #expect(log.names == ["a", "a", "b"])
  }

  @Test("of threads offering the same value at once, exactly one crosses")
  func concurrent() {
    let echo = MirrorGuard<String>()
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
