import KVOLiteCombine
import KVOLiteTestSupport
import Testing

/// `zip` keeps a queue per upstream: taking a value from the front of one must not move the
/// rest (it was quadratic: 500,000 pairs took 87 s in the release stress run).
@Suite("zip: long queues")
struct ZipScaleTests {
  /// Sends `count` values from one upstream, then `count` from the other; returns the time the
  /// second half took (each of its values takes the front of a queue of up to `count`).
  static func drain(_ count: Int) -> Duration {
    let a = PassthroughSubject<Int, Never>()
    let b = PassthroughSubject<Int, Never>()
    var pairs = 0
    var last = (-1, -1)
    let cancellable = a.zip(b).sink {
      pairs += 1
      last = $0
    }
    for value in 0..<count { a.send(value) }
    let time = ContinuousClock().measure {
      for value in 0..<count { b.send(value) }
    }
    #expect(pairs == count && last == (count - 1, count - 1))
    cancellable.cancel()
    return time
  }

  @Test("draining a queue 16 times as long takes about 16 times as long")
  func linear() {
    _ = Self.drain(1_000)  // warm up
    // The fastest of two runs of each size, interleaved, so that a busy machine (tests run
    // in parallel) slows neither size alone.
    var small = Duration.seconds(1_000)
    var large = Duration.seconds(1_000)
    for _ in 0..<2 {
      small = min(small, Self.drain(10_000))
      large = min(large, Self.drain(160_000))
    }
    // Linear: about 16; quadratic (each value moved the queue behind it): over 100.
    #expect(large / small < 48, "10,000 took \(small), 160,000 took \(large)")
  }
}
