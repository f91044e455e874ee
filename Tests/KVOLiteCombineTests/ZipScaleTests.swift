import KVOLiteCombine
import KVOLiteTestSupport
import Testing

/// `zip` keeps a queue per upstream; taking a value from the front of one must not disturb the
/// rest. (It was quadratic: 500,000 pairs took 87 s in the release stress run, which measures
/// it; no test is timed.)
@Suite("zip: long queues")
struct ZipScaleTests {
  @Test("a queue of 100,000 values drains into exact pairs, in order, and is let go of")
  func longQueue() {
    let a = PassthroughSubject<Int, Never>()
    let b = PassthroughSubject<Int, Never>()
    var pairs = 0
    var outOfOrder = 0
    let cancellable = a.zip(b).sink { pair in
      if pair != (pairs, pairs * 2) { outOfOrder += 1 }
      pairs += 1
    }
    for value in 0..<100_000 { a.send(value) }
    for value in 0..<100_000 { b.send(value * 2) }
    #expect(pairs == 100_000 && outOfOrder == 0)
    // The queues are empty: one more value on each side makes one more pair.
    a.send(100_000)
    b.send(200_000)
    #expect(pairs == 100_001 && outOfOrder == 0)
    cancellable.cancel()
  }
}
