#if DEBUG
  import Foundation
  import KVOLite
  import KVOLiteLocking
  import Testing

  /// The lock-order checker of debug builds: a broken order or a call-out under a lock stops
  /// the program, naming the locks; the one nesting allowed goes through.
  @Suite("Lock order")
  struct LockOrderTests {
    /// What the program printed on standard error before it stopped.
    static func message(_ result: ExitTest.Result?) -> String {
      let text = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
      return text.split(separator: "\n").first { $0.contains("Fatal error") }.map(String.init)
        ?? text
    }

    @Test("a links observation's lock, then a property lock: allowed")
    func allowedNesting() {
      let links = Lock(rank: .links)
      let inner = Lock(rank: .property)
      links.withLock { inner.withLock { #expect(LockOrder.heldLockCount == 2) } }
      #expect(LockOrder.heldLockCount == 0)
    }

    @Test("a lock taken while a leaf lock is held stops the program, naming both")
    func leafInsideLeaf() async {
      let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        let outer = Lock(file: "Outer.lock", line: 0)
        let inner = Lock(file: "Inner.lock", line: 0)
        outer.withLock { inner.withLock {} }
      }
      #expect(
        Self.message(result).hasSuffix(
          "Fatal error: KVOLite lock order: Inner.lock (rank leaf) is taken while Outer.lock "
            + "(rank leaf) is held; the one order is a links observation's lock, then a property "
            + "lock"))
    }

    @Test("a links observation's lock taken inside a property lock stops the program")
    func linksInsideProperty() async {
      let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        let property = Lock(rank: .property, file: "Property.lock", line: 0)
        let links = Lock(rank: .links, file: "Links.lock", line: 0)
        property.withLock { links.withLock {} }
      }
      #expect(
        Self.message(result).hasSuffix(
          "Fatal error: KVOLite lock order: Links.lock (rank links) is taken while Property.lock "
            + "(rank property) is held; the one order is a links observation's lock, then a "
            + "property lock"))
    }

    @Test("an observer's handler called while a lock is held stops the program")
    func callOutUnderLock() async {
      let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        let lock = Lock(file: "Held.lock", line: 0)
        lock.withLock { DeliveryScope.run {} }
      }
      #expect(
        Self.message(result).hasSuffix(
          "Fatal error: KVOLite lock order: a delivery (a handler, or a subscriber's receive) is "
            + "called while Held.lock is held"))
    }
  }
#endif
