import KVOLite
import KVOLiteTestSupport
import Testing

@Suite("Dependent keys")
struct DependentKeyTests {
  @Test("a derived key notifies when any affecting key changes, with its own old and new values")
  func derivedOldNew() throws {
    let person = Person(firstName: "Ann")
    let log = Log<String>()
    let token = person.observe(\.fullName, options: [.old, .new, .prior]) { _, change in
      log.append(
        "\(change.isPrior ? "prior " : "")\(change.oldValue ?? "-") -> \(change.newValue ?? "-")")
    }
    person.lastName = "Lee"
    person.firstName = "Bo"
    #expect(
      log.all == ["prior Ann  -> -", "Ann  -> Ann Lee", "prior Ann Lee -> -", "Ann Lee -> Bo Lee"])
    _ = token
  }

  @Test("affecting paths may be chains and other derived keys, through nil intermediates")
  func chainsAndDerivedThroughNil() throws {
    let order = Order()
    let log = Log<String>()
    let token = order.observe(\.summary, options: [.new]) { _, change in
      log.append(change.newValue!)
    }
    let ann = Person(firstName: "Ann")
    order.customer = ann
    ann.lastName = "Lee"
    order.mutableArrayValue(for: \.items).append(Item("Book"))
    order.customer = nil
    ann.firstName = "ignored"
    #expect(log.all == ["Ann : 0", "Ann Lee: 0", "Ann Lee: 1", "-: 1"])
    _ = token
  }

  @Test("one change that hits several affecting paths gives one notification")
  func oneNotificationPerChange() throws {
    let order = Order()
    order.customer = Person(firstName: "Ann")
    let counter = Counter()
    let token = order.observe(\.names) { _, _ in counter.increment() }
    order.customer = Person(firstName: "Bob")
    #expect(counter.count == 1)
    order.customer?.lastName = "Lee"
    #expect(counter.count == 2)
    _ = token
  }

  @Test("dependency cycles terminate and notify each observer once per change")
  func cycles() throws {
    let order = Order()
    let log = Log<String>()
    let tx = order.observe(\.x, options: [.new]) { _, change in log.append("x \(change.newValue!)")
    }
    let ty = order.observe(\.y, options: [.new]) { _, change in log.append("y \(change.newValue!)")
    }
    order.base = 1
    #expect(log.all == ["x 2", "y 4"])
    _ = (tx, ty)
  }

  @Test("a derived key observed through a chain follows the chain")
  func derivedAtEndOfChain() throws {
    let parcel = Parcel(recipient: Person(firstName: "Ann"))
    let log = Log<String>()
    let token = parcel.observe(\.recipient.fullName, options: [.new]) { _, change in
      log.append(change.newValue!)
    }
    parcel.recipient.lastName = "Lee"
    let old = parcel.recipient
    parcel.recipient = Person(firstName: "Bob")
    old.firstName = "ignored"
    parcel.recipient.lastName = "Ray"
    #expect(log.all == ["Ann Lee", "Bob ", "Bob Ray"])
    _ = token
  }

  @Test("manual notification of a derived key reaches its observers")
  func manualDerived() throws {
    let person = Person(firstName: "Ann")
    let counter = Counter()
    let token = person.observe(\.fullName) { _, _ in counter.increment() }
    person.willChangeValue(for: \.fullName)
    person.didChangeValue(for: \.fullName)
    #expect(counter.count == 1)
    _ = token
  }

  @Test("an affecting path that does not resolve fails the registration")
  func badAffectingPath() {
    let broken = Broken()
    #expect(
      throws: KeyValueError.unknownKey(
        key: "nope", type: "Address", path: "address", suggestion: nil)
    ) {
      _ = try broken.observe("derived") { _ in }
    }
    #expect(broken.observationRegistrar.triggerCount == 0)
  }
}

final class Broken: KeyValueObservable {
  let observationRegistrar = ObservationRegistrar()
  static let observableKeys: ObservableKeys<Broken> = [
    .attribute("value", \.value),
    .derived("derived", \.derived, affectedBy: ["value", "address.nope"]),
  ]
  @Observed var value = 0
  @Observed var address = Address()
  var derived: Int { value }
}
