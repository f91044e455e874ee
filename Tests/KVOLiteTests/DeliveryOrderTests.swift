import KVOLite
import KVOLiteTestSupport
import Testing

@Suite("Delivery order and re-entrancy")
struct DeliveryOrderTests {
  @Test("observers are called in registration order, for prior and post notifications alike")
  func registrationOrder() throws {
    let person = Person()
    let log = Log<String>()
    var tokens: [ObservationToken] = []
    for name in ["a", "b", "c"] {
      tokens.append(
        person.observe(\.age, options: [.prior]) { _, change in
          log.append("\(name)\(change.isPrior ? " prior" : "")")
        })
    }
    person.age = 1
    #expect(log.all == ["a prior", "b prior", "c prior", "a", "b", "c"])
  }

  @Test("registration order holds across typed, string and chain observers of one key")
  func orderAcrossKinds() throws {
    let parcel = Parcel()
    let log = Log<String>()
    let t1 = parcel.recipient.observe(\.firstName) { _, _ in log.append("direct 1") }
    let t2 = parcel.observe(\.recipient.firstName) { _, _ in log.append("chain") }
    let t3 = try parcel.recipient.observe("firstName") { _ in log.append("string") }
    let t4 = parcel.recipient.observe(\.firstName) { _, _ in log.append("direct 2") }
    parcel.recipient.firstName = "x"
    #expect(log.all == ["direct 1", "chain", "string", "direct 2"])
    _ = (t1, t2, t3, t4)
  }

  @Test(
    "a change made inside a callback is delivered at once, depth-first, then the outer delivery continues"
  )
  func reentrantChangeDepthFirst() throws {
    let person = Person()
    let log = Log<String>()
    let first = person.observe(\.age, options: [.old, .new]) { person, change in
      log.append("first \(change.oldValue!)->\(change.newValue!)")
      if change.newValue == 1 { person.age = 2 }
    }
    let second = person.observe(\.age, options: [.old, .new]) { _, change in
      log.append("second \(change.oldValue!)->\(change.newValue!)")
    }
    person.age = 1
    #expect(log.all == ["first 0->1", "first 1->2", "second 1->2", "second 0->1"])
    _ = (first, second)
  }

  @Test("observers added during a delivery do not receive the change in flight")
  func addedDuringDeliveryMissIt() throws {
    let person = Person()
    let log = Log<String>()
    var late: ObservationToken?
    let first = person.observe(\.age, options: [.new]) { person, change in
      log.append("first \(change.newValue!)")
      if late == nil {
        late = person.observe(\.age, options: [.new]) { _, change in
          log.append("late \(change.newValue!)")
        }
      }
    }
    person.age = 1
    person.age = 2
    #expect(log.all == ["first 1", "first 2", "late 2"])
    _ = (first, late)
  }

  @Test("observers removed during a delivery, by anyone, receive nothing more")
  func removedDuringDeliveryGetNothing() throws {
    let person = Person()
    let log = Log<String>()
    var victim: ObservationToken?
    let killer = person.observe(\.age, options: [.prior]) { _, change in
      log.append(change.isPrior ? "killer prior" : "killer")
      victim?.invalidate()
    }
    victim = person.observe(\.age, options: [.prior]) { _, change in
      log.append(change.isPrior ? "victim prior" : "victim")
    }
    person.age = 1
    person.age = 2
    #expect(log.all == ["killer prior", "killer", "killer prior", "killer"])
    _ = killer
  }

  @Test("an observer that cancels itself inside its callback gets nothing more")
  func cancelSelfInCallback() throws {
    let person = Person()
    let counter = Counter()
    var token: ObservationToken?
    token = person.observe(\.age) { _, _ in
      counter.increment()
      token?.invalidate()
      token?.invalidate()
    }
    person.age = 1
    person.age = 2
    #expect(counter.count == 1)
  }

  @Test("removing one of two observers of a key does not silence the other")
  func removingOneKeepsTheOther() throws {
    let person = Person()
    let log = Log<String>()
    let a = person.observe(\.age) { _, _ in log.append("a") }
    let b = person.observe(\.age) { _, _ in log.append("b") }
    a.invalidate()
    person.age = 1
    #expect(log.all == ["b"])
    _ = b
  }
}
