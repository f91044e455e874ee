import KVOLite
import KVOLiteTestSupport
import Testing

@Suite("Key path chains")
struct ChainTests {
  @Test(
    "a change at any level gives one notification, old through the old chain, new through the new")
  func oneNotificationPerLevel() throws {
    let parcel = Parcel(recipient: Person(address: Address(street: "1 Main")))
    let log = Log<String>()
    let token = parcel.observe(\.recipient.address.street, options: [.old, .new]) { _, change in
      log.append("\(change.oldValue ?? "-") -> \(change.newValue ?? "-")")
    }
    parcel.recipient.address.street = "2 Side"
    parcel.recipient.address = Address(street: "3 High")
    parcel.recipient = Person(address: Address(street: "4 Low"))
    parcel.recipient.address.street = "5 Far"
    #expect(
      log.all == ["1 Main -> 2 Side", "2 Side -> 3 High", "3 High -> 4 Low", "4 Low -> 5 Far"])
    _ = token
  }

  @Test("setting an intermediate to the same object still notifies")
  func sameIntermediateNotifies() throws {
    let parcel = Parcel()
    let counter = Counter()
    let token = parcel.observe(\.recipient.address.street) { _, _ in counter.increment() }
    parcel.recipient = parcel.recipient
    parcel.recipient.address = parcel.recipient.address
    #expect(counter.count == 2)
    _ = token
  }

  @Test("a replaced intermediate is detached: its later changes notify nobody")
  func replacedIntermediateIsDetached() throws {
    let parcel = Parcel()
    let oldRecipient = parcel.recipient
    let log = Log<String>()
    let token = parcel.observe(\.recipient.address.street, options: [.new]) { _, change in
      log.append(change.newValue ?? "-")
    }
    parcel.recipient = Person(address: Address(street: "new"))
    oldRecipient.address.street = "ignored"
    oldRecipient.address = Address(street: "ignored too")
    parcel.recipient.address.street = "seen"
    #expect(log.all == ["new", "seen"])
    _ = token
  }

  @Test("a replaced intermediate is not retained by the observation")
  func replacedIntermediateIsReleased() throws {
    let released = Counter()
    let parcel = Parcel(recipient: Person(onDeinit: { released.increment() }))
    let token = parcel.observe(\.recipient.address.street, options: [.old, .new]) { _, _ in }
    weak let oldRecipient = parcel.recipient
    parcel.recipient = Person()
    #expect(oldRecipient == nil)
    #expect(released.count == 1)
    _ = token
  }

  @Test("nil intermediates make the value nil and are wired when they appear")
  func nilIntermediates() throws {
    let parcel = Parcel()
    let log = Log<String>()
    let token = try parcel.observe("sender.address.street", options: [.initial, .old, .new]) {
      change in
      log.append("\(Self.show(change.oldValue)) -> \(Self.show(change.newValue))")
    }
    parcel.sender = Person(address: Address(street: "a"))
    parcel.sender?.address.street = "b"
    parcel.sender?.address = Address(street: "c")
    parcel.sender = nil
    parcel.sender = Person(address: Address(street: "d"))
    parcel.sender?.address.street = "e"
    #expect(
      log.all == [
        "none -> nil", "nil -> a", "a -> b", "b -> c", "c -> nil", "nil -> d", "d -> e",
      ])
    _ = token
  }

  @Test("string and typed observations of the same chain see the same changes")
  func stringMatchesTyped() throws {
    let parcel = Parcel()
    let typed = Log<String>()
    let erased = Log<String>()
    let t1 = parcel.observe(\.recipient.firstName, options: [.new]) { _, change in
      typed.append(change.newValue ?? "-")
    }
    let t2 = try parcel.observe("recipient.firstName", options: [.new]) { change in
      erased.append(Self.show(change.newValue))
    }
    parcel.recipient.firstName = "Ann"
    parcel.recipient = Person(firstName: "Bob")
    #expect(typed.all == ["Ann", "Bob"])
    #expect(erased.all == ["Ann", "Bob"])
    _ = (t1, t2)
  }

  @Test("prior notifications work through a chain")
  func priorThroughChain() throws {
    let parcel = Parcel(recipient: Person(address: Address(street: "x")))
    let log = Log<String>()
    let token = parcel.observe(\.recipient.address.street, options: [.prior, .old, .new]) {
      _, change in
      log.append("\(change)")
    }
    parcel.recipient.address = Address(street: "y")
    #expect(log.all == [#"prior setting old: "x""#, #"setting old: "x" new: "y""#])
    _ = token
  }

  /// Prints an erased value the way the REPL will: `none` when absent, `nil` for nil.
  static func show(_ value: Any??) -> String {
    switch value {
    case .none: "none"
    case .some(.none): "nil"
    case .some(.some(let value)): "\(value)"
    }
  }
}
