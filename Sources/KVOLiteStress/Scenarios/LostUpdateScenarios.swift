import KVOLiteBridge
import KVOLiteTestSupport
import Synchronization

/// A model whose computed values' inputs change with a branch, a to-one and the elements of a
/// to-many: what an observation that finds its inputs by reading must follow.
final class Switchboard: KeyValueObservable, @unchecked Sendable {
  let observationRegistrar = ObservationRegistrar()
  @Observed var flag = false
  @Observed var a = 0
  @Observed var b = 0
  @Observed var part = Gear()
  @Observed var parts: [Gear] = []
  var value: String { flag ? "A\(a)" : "B\(b)" }
  var partName: String { part.name }
  var total: Int { parts.reduce(0) { $0 + $1.weight } }

  /// `value` again, declared without `affectedBy`: found by reading, observed by name.
  static let observableKeys: ObservableKeys<Switchboard> = [.derived("declaredValue", \.value)]
}

/// A part of a ``Switchboard``.
final class Gear: KeyValueObservable, @unchecked Sendable {
  let observationRegistrar = ObservationRegistrar()
  @Observed var name = "old"
  @Observed var weight = 0
}

/// Item 1 of the observation-core issue: a change of a value found by reading, made by one
/// thread while another changes what the reading found, must reach the observer. Each form
/// runs its rounds on two threads: a fresh model and observation, then at once one thread
/// makes the first change and the other the second; then the observer must have been told
/// the model's final value. (Concurrent deliveries may still arrive in any order, as every KVO
/// delivery from several threads may; how often the last one delivered is not the final value
/// is counted, not failed.)
enum LostUpdateScenarios {
  static var all: [StressScenario] {
    [
      form("observe(\\.value), a branch switched while its new input is set") { board, log in
        board.model.observe(\.value, options: [.new]) { _, change in log.append(change.newValue!) }
      } first: { board, _ in
        board.model.flag = true
      } second: { board, round in
        board.model.a = round + 1
      } final: { board in
        board.model.value
      },
      form("publisher(for: \\.value), a branch switched while its new input is set") {
        board, log in
        board.model.publisher(for: \.value).sink { log.append($0) }
      } first: { board, _ in
        board.model.flag = true
      } second: { board, round in
        board.model.a = round + 1
      } final: { board in
        board.model.value
      },
      form("a key declared without affectedBy, observed by name, a branch switched") {
        board, log in
        try! board.model.observe("declaredValue", options: [.new]) { change in
          log.append((change.newValue ?? nil) as! String)
        }
      } first: { board, _ in
        board.model.flag = true
      } second: { board, round in
        board.model.a = round + 1
      } final: { board in
        board.model.value
      },
      form("observe(\\.partName), a to-one replaced while the new object's input is set") {
        board, log in
        board.model.observe(\.partName, options: [.new]) { _, change in log.append(change.newValue!)
        }
      } first: { board, _ in
        board.model.part = board.spare
      } second: { board, round in
        board.spare.name = "new \(round)"
      } final: { board in
        board.model.partName
      },
      form("observe(\\.total), an element appended while its key is set") { board, log in
        board.model.observe(\.total, options: [.new]) { _, change in
          log.append("\(change.newValue!)")
        }
      } first: { board, _ in
        board.model.parts.append(board.spare)
      } second: { board, round in
        board.spare.weight = round + 1
      } final: { board in
        "\(board.model.total)"
      },
    ]
  }

  /// One round's model, with the spare part the changes use.
  final class Board: @unchecked Sendable {
    let model = Switchboard()
    let spare = Gear()
  }

  /// A scenario of `iterations / 10` rounds (at least 20,000 at CI's 200,000): `observe`
  /// starts the observation (what it returns is kept for the round), then `first` and
  /// `second` run on two threads at once, and `final` is the value the observer must have
  /// been told.
  static func form(
    _ name: String,
    observe: @escaping @Sendable (Board, Log<String>) -> AnyObject,
    first: @escaping @Sendable (Board, Int) -> Void,
    second: @escaping @Sendable (Board, Int) -> Void,
    final: @escaping @Sendable (Board) -> String
  ) -> StressScenario {
    StressScenario(name: "lost updates: \(name)") { iterations in
      var report = StressReport()
      let rounds = max(1, iterations / 10)
      let lost = Counter()
      let lastStale = Counter()
      let barrier = RoundBarrier(count: 2)
      let current = Locked<(Board, Log<String>, AnyObject)?>(nil)
      race(workers: 2) { worker in
        for round in 0..<rounds {
          if worker == 0 {
            let board = Board()
            let log = Log<String>()
            let kept = observe(board, log)
            current.withLock { $0 = (board, log, kept) }
          }
          barrier.arriveAndWait()
          let (board, log, _) = current.withLock { $0! }
          if worker == 0 { first(board, round) } else { second(board, round) }
          barrier.arriveAndWait()
          if worker == 0 {
            let value = final(board)
            let heard = log.all
            if !heard.contains(value) { lost.increment() }
            if heard.last != value { lastStale.increment() }
            current.withLock { $0 = nil }
          }
          barrier.arriveAndWait()
        }
      }
      report.expect("rounds whose final value was never delivered", lost.count, 0)
      report.count("rounds", rounds)
      report.count("rounds whose last delivery was not the final value", lastStale.count)
      return report
    }
  }
}
