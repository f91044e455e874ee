import KVOLiteBridge
import KVOLiteTestSupport
import Synchronization
import Testing

@Suite("publisher(for:)")
struct KeyValueObservingPublisherTests {
  @Test("the default options publish the current value, then every new one")
  func defaultOptions() throws {
    let person = Person(firstName: "Ann")
    let subscriber = TrackingSubscriber<String, Never>()
    person.publisher(for: \.firstName).subscribe(subscriber)
    person.firstName = "Bob"
    person.firstName = "Bob"
    #expect(subscriber.events == [.subscription, .value("Ann"), .value("Bob"), .value("Bob")])
  }

  @Test(".prior publishes the value from before each change too")
  func prior() throws {
    let person = Person()
    let subscriber = TrackingSubscriber<Int, Never>()
    person.publisher(for: \.age, options: [.initial, .prior]).subscribe(subscriber)
    person.age = 1
    person.age = 2
    #expect(
      subscriber.events == [.subscription, .value(0), .value(0), .value(1), .value(1), .value(2)])
  }

  @Test("a request for .max(n) delivers n values (Apple's off-by-one is not copied)")
  func demand() throws {
    let person = Person()
    let subscriber = TrackingSubscriber<Int, Never>(onSubscribe: { _ in })
    person.publisher(for: \.age).subscribe(subscriber)
    person.age = 1  // No demand yet: dropped; the initial 0 waits for the first request.
    subscriber.subscription?.request(.max(3))
    person.age = 5
    person.age = 6
    person.age = 7  // Demand used up: dropped.
    #expect(subscriber.events == [.subscription, .value(0), .value(5), .value(6)])
  }

  @Test("chains and string key paths publish too; cancelling ends the observation")
  func chainsAndCancel() throws {
    let parcel = Parcel()
    let typed = TrackingSubscriber<String, Never>()
    let erased = TrackingSubscriber<String, Never>()
    parcel.publisher(for: \.recipient.address.street).subscribe(typed)
    try parcel.publisher(for: "recipient.address.street").map { "\($0 ?? "nil")" }.subscribe(erased)
    parcel.recipient = Person(address: Address(street: "x"))
    typed.subscription?.cancel()
    erased.subscription?.cancel()
    parcel.recipient.address.street = "y"
    #expect(typed.events == [.subscription, .value(""), .value("x")])
    #expect(erased.events == [.subscription, .value(""), .value("x")])
    #expect(parcel.observationRegistrar.triggerCount == 0)
  }

  @Test("a malformed string key path is rejected when the publisher is made")
  func errors() {
    let person = Person()
    #expect(
      throws: KeyValueError.malformedKeyPath(
        path: "a..b", reason: "it has an empty key between two dots")
    ) {
      _ = try person.publisher(for: "a..b")
    }
  }

  @Test("the async sequence of a key path's values")
  func values() async throws {
    let person = Person(firstName: "Ann")
    var iterator = person.values(for: \.firstName).makeAsyncIterator()
    #expect(await iterator.next() == "Ann")
    let contact = CurrentValueSubject<Int, Never>(1)
    var numbers = contact.values.makeAsyncIterator()
    #expect(await numbers.next() == 1)
    contact.send(2)
    contact.send(3)
    #expect(await numbers.next() == 3)
    contact.send(completion: .finished)
    #expect(await numbers.next() == nil)
  }

  @Test("leaving a loop over values(for:) ends its observation")
  func leavingTheLoop() async {
    let person = Person(firstName: "Ann")
    for await name in person.values(for: \.firstName) where name == "Ann" { break }
    #expect(person.observationRegistrar.triggerCount == 0)
    var iterator: AsyncPublisher<KeyValueObservingPublisher<Person, String>>.Iterator? =
      person.values(for: \.firstName).makeAsyncIterator()
    let copy = iterator
    iterator = nil
    #expect(person.observationRegistrar.triggerCount == 1)
    withExtendedLifetime(copy) {}
  }

  @Test("the held .initial value comes first, also when a set on another thread races the request")
  func initialFirstUnderRacingSets() {
    let person = Person(firstName: "0")
    let done = Atomic<Bool>(false)
    let outOfOrder = Locked<[[Int]]>([])
    race(workers: 2) { worker in
      guard worker == 1 else {
        var count = 0
        while !done.load(ordering: .acquiring) {
          count += 1
          person.firstName = "\(count)"
        }
        return
      }
      for _ in 0..<5_000 {
        let subscriber = TrackingSubscriber<String, Never>(onSubscribe: { _ in })
        person.publisher(for: \.firstName).subscribe(subscriber)
        subscriber.subscription?.request(.max(2))
        subscriber.subscription?.cancel()
        let values = subscriber.history.all.compactMap { event -> Int? in
          guard case .value(let value) = event else { return nil }
          return Int(value)
        }
        if values != values.sorted() { outOfOrder.withLock { $0.append(values) } }
      }
      done.store(true, ordering: .releasing)
    }
    #expect(outOfOrder.withLock { $0 } == [])
  }

  @Test(
    "equal when they observe the same object, key path and options, as Foundation's; Foundation's initializer publishes the same"
  )
  func equatable() throws {
    let person = Person(firstName: "Ann")
    let other = Person(firstName: "Ann")
    let names = person.publisher(for: \.firstName)
    #expect(names == person.publisher(for: \.firstName))
    #expect(
      names
        == KeyValueObservingPublisher(
          object: person, keyPath: \.firstName, options: [.initial, .new]))
    #expect(names != other.publisher(for: \.firstName))
    #expect(names != person.publisher(for: \.lastName))
    #expect(names != person.publisher(for: \.firstName, options: [.new]))
    let byName = try person.publisher(for: "firstName")
    #expect(byName == (try person.publisher(for: "firstName")))
    #expect(byName != (try person.publisher(for: "lastName")))
    let subscriber = TrackingSubscriber<String, Never>()
    KeyValueObservingPublisher(object: person, keyPath: \.firstName, options: [.new])
      .subscribe(subscriber)
    person.firstName = "Bob"
    #expect(subscriber.events == [.subscription, .value("Bob")])
  }

  @Test("didChange() publishes Void each time the publisher does, as Foundation's")
  func didChange() {
    let person = Person()
    let changes = Counter()
    let cancellable = person.publisher(for: \.age).didChange().sink { changes.increment() }
    person.age = 1
    person.age = 1
    #expect(changes.count == 3)
    cancellable.cancel()
  }
}
