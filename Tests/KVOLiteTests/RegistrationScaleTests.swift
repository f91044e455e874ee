import KVOLite
import KVOLiteTestSupport
import Testing

@Suite("Many observers of one key")
struct RegistrationScaleTests {
  @Test("100,000 observers of one key are notified once each, in order, and all leave")
  func hundredThousandObservers() {
    let person = Person()
    let count = 100_000
    let seen = Locked<[Int]>([])
    var tokens = (0..<count).map { number in
      person.observe(\.age, options: [.new]) { _, _ in seen.withLock { $0.append(number) } }
    }
    person.age = 1
    #expect(seen.withLock { $0 } == Array(0..<count))

    // Every other one leaves: the others still get the next change, in order.
    for index in stride(from: 0, to: count, by: 2) { tokens[index].invalidate() }
    seen.withLock { $0 = [] }
    person.age = 2
    #expect(seen.withLock { $0 } == Array(stride(from: 1, to: count, by: 2)))

    tokens = []
    #expect(person.observationRegistrar.triggerCount == 0)
    seen.withLock { $0 = [] }
    person.age = 3
    #expect(seen.withLock { $0 }.isEmpty)
  }

  @Test("observers added and removed by a handler during a delivery do not change it")
  func changesDuringDelivery() {
    let person = Person()
    let log = Log<String>()
    var added: [ObservationToken] = []
    var removable: ObservationToken?
    let first = person.observe(\.age, options: [.new]) { person, change in
      log.append("first \(change.newValue!)")
      guard change.newValue == 1 else { return }
      removable?.invalidate()
      for number in 0..<20 {
        added.append(
          person.observe(\.age, options: [.new]) { _, change in
            log.append("added \(number) \(change.newValue!)")
          })
      }
    }
    removable = person.observe(\.age, options: [.new]) { _, change in
      log.append("removable \(change.newValue!)")
    }
    person.age = 1
    #expect(log.all == ["first 1"])
    person.age = 2
    #expect(log.all == ["first 1", "first 2"] + (0..<20).map { "added \($0) 2" })
    _ = (first, added)
  }
}
