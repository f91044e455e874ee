import KVOLite
import KVOLiteTestSupport
import Testing

/// The last object of a chain.
private final class Leaf: KeyValueObservable, @unchecked Sendable {
  let observationRegistrar = ObservationRegistrar()
  @Observed var value = 0
}

/// One hop: a to-one relationship to the next object of the chain.
private final class Hop<Next: KeyValueObservable>: KeyValueObservable, @unchecked Sendable {
  let observationRegistrar = ObservationRegistrar()
  @Observed var c: Next
  init(_ next: Next) { c = next }
}

private typealias H1 = Hop<Leaf>
private typealias H2 = Hop<H1>
private typealias H3 = Hop<H2>
private typealias H4 = Hop<H3>
private typealias H5 = Hop<H4>
private typealias H6 = Hop<H5>
private typealias H7 = Hop<H6>
private typealias H8 = Hop<H7>
private typealias H9 = Hop<H8>
private typealias H10 = Hop<H9>
private typealias H11 = Hop<H10>
private typealias H12 = Hop<H11>
private typealias H13 = Hop<H12>
private typealias H14 = Hop<H13>
private typealias H15 = Hop<H14>
private typealias H16 = Hop<H15>

/// A chain of sixteen hops, then the leaf.
private func chain() -> H16 {
  H16(H15(H14(H13(H12(H11(H10(H9(H8(H7(H6(H5(H4(H3(H2(H1(Leaf()))))))))))))))))
}

/// Typed key paths have no limit on their hops, as string key paths have none (9 or more used
/// to stop the program, as if the key path were not made of keys).
@Suite("Typed key paths of many hops")
struct LongTypedKeyPathTests {
  @Test("a key path of nine hops is observed: the leaf and an intermediate notify once each")
  func nineHops() {
    let root = H8(H7(H6(H5(H4(H3(H2(H1(Leaf()))))))))
    let log = Log<Int>()
    let token = root.observe(\.c.c.c.c.c.c.c.c.value, options: [.initial, .new]) { _, change in
      log.append(change.newValue!)
    }
    root.c.c.c.c.c.c.c.c.value = 1
    let replacement = Leaf()
    replacement.value = 2
    root.c.c.c.c.c.c.c.c = replacement
    root.c.c.c.c.c.c.c.c.value = 3
    #expect(log.all == [0, 1, 2, 3])
    _ = token
  }

  @Test("a key path of seventeen hops is observed, and so is every shorter one of its keys")
  func seventeenHops() {
    let root = chain()
    let log = Log<String>()
    let leafToken = root.observe(\.c.c.c.c.c.c.c.c.c.c.c.c.c.c.c.c.value, options: [.new]) {
      _, change in
      log.append("leaf \(change.newValue!)")
    }
    let middleToken = root.observe(\.c.c.c.c.c.c.c.c.c.c.c.c) { _, _ in log.append("middle") }
    root.c.c.c.c.c.c.c.c.c.c.c.c.c.c.c.c.value = 7
    root.c.c.c.c.c.c.c.c.c.c.c.c = H4(H3(H2(H1(Leaf()))))
    #expect(log.all == ["leaf 7", "leaf 0", "middle"])
    _ = (leafToken, middleToken)
  }
}
