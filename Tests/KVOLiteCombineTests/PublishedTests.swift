import KVOLiteCombine
import KVOLiteTestSupport
import Testing

private final class Contact: ObservableObject {
  @Published var name = "Ann"
  @Published var age = 1
  let released: Counter?
  init(released: Counter? = nil) { self.released = released }
  deinit { released?.increment() }
}

private final class Plain: ObservableObject {
  var nothingPublished = 0
}

@Suite("@Published and ObservableObject")
struct PublishedTests {
  @Test("the projected publisher sends the current value, then each new value in willSet")
  func willSetSemantics() {
    let contact = Contact()
    let log = Log<String>()
    let cancellable = contact.$name.sink { new in
      log.append("\(new) (property still \(contact.name))")
    }
    contact.name = "Bob"
    #expect(log.all == ["Ann (property still Ann)", "Bob (property still Ann)"])
    #expect(contact.name == "Bob")
    _ = cancellable
  }

  @Test("objectWillChange fires before any @Published property changes")
  func objectWillChange() {
    let contact = Contact()
    let log = Log<String>()
    let cancellable = contact.objectWillChange.sink {
      log.append("will change from \(contact.name)/\(contact.age)")
    }
    contact.name = "Bob"
    contact.age = 2
    #expect(log.all == ["will change from Ann/1", "will change from Bob/1"])
    #expect(contact.objectWillChange === contact.objectWillChange)
    _ = cancellable
  }

  @Test("an object without @Published properties has a publisher that never fires")
  func noPublished() {
    let plain = Plain()
    let log = Log<Int>()
    let cancellable = plain.objectWillChange.sink { log.append(1) }
    plain.nothingPublished = 1
    #expect(log.all.isEmpty)
    _ = cancellable
  }

  @Test("assign(to: &$property) republishes into the property and does not keep its owner alive")
  func assignToPublished() {
    let released = Counter()
    let source = PassthroughSubject<String, Never>()
    var contact: Contact? = Contact(released: released)
    source.assign(to: &contact!.$name)
    let log = Log<String>()
    let willChange = contact!.objectWillChange.sink { log.append("will change") }
    source.send("Cy")
    #expect(contact?.name == "Cy")
    #expect(log.all == ["will change"])
    willChange.cancel()
    contact = nil
    #expect(released.count == 1)
    source.send("ignored")
  }

  @Test("limited demand on a @Published publisher gets the latest value when asked")
  func publishedDemand() {
    let contact = Contact()
    let subscriber = TrackingSubscriber<Int, Never>(onSubscribe: { $0.request(.max(1)) })
    contact.$age.subscribe(subscriber)
    contact.age = 2
    contact.age = 3
    subscriber.subscription?.request(.max(1))
    #expect(subscriber.events == [.subscription, .value(1), .value(3)])
  }
}
