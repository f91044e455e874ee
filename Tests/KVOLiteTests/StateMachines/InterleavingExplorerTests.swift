import KVOLiteTestSupport
import Testing

/// The explorer that the state machines' interleaving tests rely on: it runs every schedule
/// once, finds what only some schedules break, and reports deadlocks.
@Suite("Interleaving explorer")
struct InterleavingExplorerTests {
  /// Two callers incrementing one counter by a read and then a write.
  final class Counter {
    var value = 0
  }

  static func incrementer(_ name: String, _ counter: Counter) -> InterleavingExplorer.Caller {
    var read = 0
    return .init(name, steps: [{ read = counter.value }, { counter.value = read + 1 }])
  }

  @Test func runsEveryInterleavingOnce() {
    var seen: Set<[String]> = []
    let report = InterleavingExplorer.explore(
      setUp: { () -> (Shared<[String]>, [InterleavingExplorer.Caller]) in
        let log = Shared([String]())
        let callers = ["a", "b", "c"].map { name in
          InterleavingExplorer.Caller(
            name, steps: [{ log.value.append(name + "1") }, { log.value.append(name + "2") }])
        }
        return (log, callers)
      },
      atEnd: { (log: Shared<[String]>) in
        seen.insert(log.value).inserted ? nil : "ran twice: \(log.value)"
      })
    // 6! / (2! 2! 2!) orders of three callers of two steps each.
    #expect(report.failure == nil)
    #expect(report.interleavings == 90)
    #expect(seen.count == 90)
    #expect(!report.truncated)
  }

  @Test func findsTheScheduleThatLosesAnUpdate() {
    let report = InterleavingExplorer.explore(
      setUp: {
        let counter = Counter()
        return (counter, [Self.incrementer("a", counter), Self.incrementer("b", counter)])
      },
      atEnd: { $0.value == 2 ? nil : "lost an update: \($0.value)" })
    #expect(report.failure?.message == "lost an update: 1")
    #expect(report.failure?.schedule == ["a", "b", "a", "b"])
    #expect(report.interleavings == 1)
  }

  @Test func checksTheInvariantAfterEveryStep() {
    let report = InterleavingExplorer.explore(
      setUp: {
        let counter = Counter()
        return (
          counter,
          [
            .init("up", steps: [{ counter.value += 1 }, { counter.value -= 1 }]),
            .init("check", steps: [{ counter.value += 10 }]),
          ]
        )
      },
      invariant: { $0.value == 11 ? "saw 11" : nil })
    #expect(report.failure?.message == "saw 11")
    #expect(report.failure?.schedule == ["up", "check"])
  }

  @Test func reportsADeadlock() {
    let report = InterleavingExplorer.explore(
      setUp: {
        let held = Shared<String?>(nil)
        func locker(_ name: String) -> InterleavingExplorer.Caller {
          var stage = 0
          return .init(name, canRun: { stage == 0 || held.value == nil || held.value == name }) {
            stage += 1
            if stage == 1 { return true }  // works before taking the lock
            held.value = held.value ?? name
            return stage < 3  // and never lets go
          }
        }
        return (held, [locker("a"), locker("b")])
      })
    #expect(report.failure?.message == "deadlock: b")
    #expect(report.failure?.schedule == ["a", "a", "a", "b"])
  }

  @Test func stopsAtItsLimit() {
    let report = InterleavingExplorer.explore(
      limit: 5,
      setUp: {
        let counter = Counter()
        return (counter, [Self.incrementer("a", counter), Self.incrementer("b", counter)])
      })
    #expect(report.failure == nil)
    #expect(report.interleavings == 5)
    #expect(report.truncated)
  }
}

/// A reference to a value, for callers that share it.
final class Shared<Value> {
  var value: Value
  init(_ value: Value) { self.value = value }
}
