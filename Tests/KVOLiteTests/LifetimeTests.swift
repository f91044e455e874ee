import Dispatch
import KVOLite
import KVOLiteTestSupport
import Testing

/// An observer object that owns its token and counts its own release.
private final class Watcher {
  var token: ObservationToken?
  let released: Counter
  var seen = 0
  init(person: Person, released: Counter) throws {
    self.released = released
    token = person.observe(\.age) { [weak self] _, _ in self?.seen += 1 }
  }
  deinit {
    token?.invalidate()
    released.increment()
  }
}

@Suite("Lifetime")
struct LifetimeTests {
  @Test("a released token cancels its observation and releases its handler")
  func releasedTokenCancels() throws {
    let person = Person()
    let counter = Counter()
    weak var capture: Counter?
    do {
      let captured = Counter()
      capture = captured
      let token = person.observe(\.age) { _, _ in
        captured.increment()
        counter.increment()
      }
      person.age = 1
      _ = token
    }
    person.age = 2
    #expect(counter.count == 1)
    #expect(capture == nil)
    #expect(person.observationRegistrar.triggerCount == 0)
  }

  @Test("a discarded token ends the observation at once")
  func discardedToken() throws {
    let person = Person()
    let counter = Counter()
    _ = person.observe(\.age) { _, _ in counter.increment() }
    person.age = 1
    #expect(counter.count == 0)
  }

  @Test("nothing in the library keeps an observer alive")
  func observerIsReleased() throws {
    let person = Person()
    let released = Counter()
    var watcher: Watcher? = try Watcher(person: person, released: released)
    person.age = 1
    #expect(watcher?.seen == 1)
    weak let weakWatcher = watcher
    watcher = nil
    #expect(weakWatcher == nil)
    #expect(released.count == 1)
    #expect(person.observationRegistrar.triggerCount == 0)
    person.age = 2
  }

  @Test("invalidating twice, and from another thread, is safe")
  func invalidateTwiceAndElsewhere() throws {
    let person = Person()
    let counter = Counter()
    let token = person.observe(\.age) { _, _ in counter.increment() }
    DispatchQueue.global().sync { token.invalidate() }
    token.invalidate()
    person.age = 1
    #expect(counter.count == 0)
    #expect(person.observationRegistrar.triggerCount == 0)
  }

  @Test(
    "the observation is registered before the initial callback; cancelling others in it is safe")
  func cancelInsideInitial() throws {
    let person = Person()
    let log = Log<String>()
    let other = person.observe(\.age) { _, _ in log.append("other") }
    let token = person.observe(\.age, options: [.initial, .new]) { person, change in
      log.append("self \(change.newValue!)")
      if change.newValue == 0 {
        other.invalidate()
        other.invalidate()
        person.age = 5
      }
    }
    #expect(log.all == ["self 0", "self 5"])
    _ = token
  }

  @Test(
    "a chain observation sees a change made inside its initial callback, and nothing after invalidation"
  )
  func chainChangeInsideInitial() throws {
    let parcel = Parcel()
    let counter = Counter()
    var token: ObservationToken?
    token = parcel.observe(\.recipient.address.street, options: [.initial]) { parcel, _ in
      counter.increment()
      if counter.count == 1 { parcel.recipient.address.street = "inside" }
    }
    token?.invalidate()
    parcel.recipient.address.street = "after"
    #expect(counter.count == 2)
    #expect(parcel.observationRegistrar.triggerCount == 0)
    #expect(parcel.recipient.observationRegistrar.triggerCount == 0)
    #expect(parcel.recipient.address.observationRegistrar.triggerCount == 0)
  }

  @Test("when the observed object is released, its observations end and tokens become inert")
  func observedObjectReleased() throws {
    let released = Counter()
    let counter = Counter()
    var person: Person? = Person(onDeinit: { released.increment() })
    let token = person!.observe(\.age) { _, _ in counter.increment() }
    person = nil
    #expect(released.count == 1)
    token.invalidate()
    token.invalidate()
    #expect(counter.count == 0)
  }

  @Test("releasing the root of a chain detaches the chain from the objects further along")
  func chainRootReleased() throws {
    let address = Address()
    let person = Person(address: address)
    var parcel: Parcel? = Parcel(recipient: person)
    let counter = Counter()
    let token = parcel!.observe(\.recipient.address.street) { _, _ in counter.increment() }
    #expect(address.observationRegistrar.triggerCount == 1)
    parcel = nil
    #expect(person.observationRegistrar.triggerCount == 0)
    #expect(address.observationRegistrar.triggerCount == 0)
    address.street = "x"
    #expect(counter.count == 0)
    _ = token
  }

  @Test("a released token leaves no link on any object of its chain")
  func chainTokenReleased() throws {
    let parcel = Parcel()
    do {
      let token = try parcel.observe("recipient.address.street") { _ in }
      #expect(parcel.recipient.address.observationRegistrar.triggerCount == 1)
      _ = token
    }
    #expect(parcel.observationRegistrar.triggerCount == 0)
    #expect(parcel.recipient.observationRegistrar.triggerCount == 0)
    #expect(parcel.recipient.address.observationRegistrar.triggerCount == 0)
  }

  @Test("objects observed through chains are all released with their owners")
  func everythingReleased() throws {
    let released = Counter()
    let token: ObservationToken
    do {
      let parcel = Parcel(
        recipient: Person(
          address: Address(onDeinit: { released.increment() }), onDeinit: { released.increment() }),
        onDeinit: { released.increment() })
      token = parcel.observe(\.recipient.address.street, options: [.old, .new]) { _, _ in }
      parcel.recipient.address.street = "x"
    }
    #expect(released.count == 3)
    token.invalidate()
  }

  @Test("a token invalidated from a deinit that runs inside a callback is safe")
  func invalidateFromDeinitInCallback() throws {
    let person = Person()
    let released = Counter()
    var watcher: Watcher? = try Watcher(person: person, released: released)
    let killer = person.observe(\.age) { _, _ in watcher = nil }
    person.age = 1
    #expect(released.count == 1)
    _ = killer
    _ = watcher
  }
}
