import Dispatch
import KVOLiteBridge

/// Workload S (subjects): 100,000 sinks on one `PassthroughSubject`, subscribed one after
/// another, then cancelled in a random order (fixed seed), with one value sent in between to
/// check that every sink is attached. Reported in milliseconds for the whole batch: the target
/// is that subscribing and cancelling stay linear (well under a second each).
enum SubjectScaleWorkload {
  static let sinks = 100_000

  /// Milliseconds to subscribe, then to cancel, every sink; the median of `rounds`.
  static func run(rounds: Int, sinks: Int = sinks) -> (subscribe: Double, cancel: Double) {
    var subscribing: [Double] = []
    var cancelling: [Double] = []
    var random = SplitMix(seed: 33)
    for _ in 0..<rounds {
      let subject = opaque(PassthroughSubject<Int, Never>())
      var cancellables: [AnyCancellable] = []
      cancellables.reserveCapacity(sinks)
      let received = Received()
      let start = DispatchTime.now().uptimeNanoseconds
      for _ in 0..<sinks {
        cancellables.append(subject.sink { received.count &+= $0 })
      }
      let subscribed = DispatchTime.now().uptimeNanoseconds
      subject.send(1)
      guard received.count == sinks else { fatalError("subject scale: a sink was not attached") }
      cancellables.shuffle(using: &random)
      let shuffled = DispatchTime.now().uptimeNanoseconds
      for cancellable in cancellables { cancellable.cancel() }
      let cancelled = DispatchTime.now().uptimeNanoseconds
      subject.send(2)
      guard received.count == sinks else {
        fatalError("subject scale: a cancelled sink received a value")
      }
      Effect.consume(received.count)
      subscribing.append(Double(subscribed - start) / 1e6)
      cancelling.append(Double(cancelled - shuffled) / 1e6)
    }
    return (subscribing.sorted()[rounds / 2], cancelling.sorted()[rounds / 2])
  }
}

/// What the sinks received (single-threaded).
private final class Received {
  var count = 0
}

/// A small seeded generator, so that every run cancels in the same order.
struct SplitMix: RandomNumberGenerator {
  private var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
