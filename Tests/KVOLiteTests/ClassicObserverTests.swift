import Foundation
import KVOLite
import KVOLiteTestSupport
import Synchronization
import Testing

/// A classic observer that records what it receives.
private final class Recorder: KeyValueObserver {
  var received: [String] = []
  /// Runs inside `observeValue`, after recording.
  var onChange: ((any KeyValueObservable, UnsafeMutableRawPointer?) -> Void)?

  func observeValue(
    forKeyPath keyPath: String, of object: any KeyValueObservable, change: KeyValueChange<Any?>,
    context: UnsafeMutableRawPointer?
  ) {
    let tag = context.map { "@\($0.load(as: Int.self))" } ?? ""
    let new = change.newValue.map { "\($0 ?? "nil")" } ?? "-"
    let old = change.oldValue.map { "\($0 ?? "nil")" } ?? "-"
    received.append("\(keyPath)\(tag) \(old)->\(new)\(change.isPrior ? " prior" : "")")
    onChange?(object, context)
  }
}

/// A classic observer that removes itself from inside its first notification, on whichever
/// thread makes it.
private final class SelfRemover: KeyValueObserver, Sendable {
  let person: Person
  private let removed = Atomic<Bool>(false)

  init(_ person: Person) { self.person = person }

  func observeValue(
    forKeyPath keyPath: String, of object: any KeyValueObservable, change: KeyValueChange<Any?>,
    context: UnsafeMutableRawPointer?
  ) {
    guard !removed.exchange(true, ordering: .relaxed) else { return }
    person.removeObserver(self, forKeyPath: keyPath)
  }
}

@Suite("The classic observer API and observing several key paths")
struct ClassicObserverTests {
  @Test(
    "addObserver delivers to observeValue with the key path, the object, the options and the context"
  )
  func delivers() throws {
    let person = Person(firstName: "A")
    let recorder = Recorder()
    let one = UnsafeMutablePointer<Int>.allocate(capacity: 1)
    one.initialize(to: 1)
    defer { one.deallocate() }
    try person.addObserver(recorder, forKeyPath: "firstName", options: [.old, .new], context: one)
    try person.addObserver(recorder, forKeyPath: "address.street", options: [.new, .initial])
    person.firstName = "B"
    person.address.street = "S"
    #expect(recorder.received == ["address.street -->", "firstName@1 A->B", "address.street -->S"])
  }

  @Test("removal matches the observer, the key path and the context; the most recent goes first")
  func removal() throws {
    let person = Person(firstName: "A")
    let recorder = Recorder()
    let tags = UnsafeMutablePointer<Int>.allocate(capacity: 2)
    tags.initialize(to: 1)
    (tags + 1).initialize(to: 2)
    defer { tags.deallocate() }
    try person.addObserver(recorder, forKeyPath: "firstName", options: [.new], context: tags)
    try person.addObserver(recorder, forKeyPath: "firstName", options: [.new], context: tags + 1)
    try person.addObserver(recorder, forKeyPath: "firstName", options: [.new], context: tags + 1)
    person.removeObserver(recorder, forKeyPath: "firstName", context: tags + 1)
    person.firstName = "B"
    #expect(recorder.received == ["firstName@1 -->B", "firstName@2 -->B"])
    recorder.received = []
    person.removeObserver(recorder, forKeyPath: "lastName", context: tags)
    person.removeObserver(recorder, forKeyPath: "firstName", context: nil)
    person.removeObserver(Recorder(), forKeyPath: "firstName")
    person.firstName = "C"
    #expect(recorder.received == ["firstName@1 -->C", "firstName@2 -->C"])
    recorder.received = []
    person.removeObserver(recorder, forKeyPath: "firstName")
    person.removeObserver(recorder, forKeyPath: "firstName")
    person.removeObserver(recorder, forKeyPath: "firstName")
    person.firstName = "D"
    #expect(recorder.received == [])
    Person().removeObserver(recorder, forKeyPath: "firstName", context: nil)
  }

  @Test("removing from inside the callback stops later notifications; errors register nothing")
  func removalInsideCallback() throws {
    let person = Person(firstName: "A")
    let recorder = Recorder()
    recorder.onChange = { object, _ in
      (object as? Person)?.removeObserver(recorder, forKeyPath: "firstName")
    }
    try person.addObserver(recorder, forKeyPath: "firstName", options: [.new])
    person.firstName = "B"
    person.firstName = "C"
    #expect(recorder.received == ["firstName -->B"])
    #expect(
      throws: KeyValueError.unknownKey(
        key: "frstName", type: "Person", path: "", suggestion: "firstName")
    ) {
      try person.addObserver(recorder, forKeyPath: "frstName")
    }
  }

  @Test("registrations hold neither the observer nor the object")
  func lifetimes() throws {
    let person = Person(firstName: "A")
    var recorder: Recorder? = Recorder()
    weak let gone = recorder
    try person.addObserver(recorder!, forKeyPath: "firstName", options: [.new])
    recorder = nil
    #expect(gone == nil)
    person.firstName = "B"
    var observed: Person? = Person(firstName: "A")
    weak let weakObserved = observed
    let keeper = Recorder()
    try observed!.addObserver(keeper, forKeyPath: "firstName")
    observed = nil
    #expect(weakObserved == nil)
  }

  @Test("observe([keyPaths]) tells the handler which key path changed; one token ends them all")
  func several() throws {
    let person = Person(firstName: "A")
    var seen: [String] = []
    let token = try person.observe(
      ["firstName", "address.street", "fullName"], options: [.new, .initial]
    ) { path, change in
      seen.append("\(path)=\(change.newValue.map { "\($0 ?? "nil")" } ?? "-")")
    }
    #expect(seen == ["firstName=A", "address.street=", "fullName=A "])
    seen = []
    person.firstName = "B"
    person.address.street = "S"
    #expect(seen == ["firstName=B", "fullName=B ", "address.street=S"])
    token.invalidate()
    person.firstName = "C"
    #expect(seen.count == 3)
  }

  @Test("observe([keyPaths]) with one bad key path registers nothing and sends nothing")
  func severalAllOrNothing() throws {
    let person = Person(firstName: "A")
    var seen = 0
    #expect(
      throws: KeyValueError.unknownKey(key: "nme", type: "Person", path: "", suggestion: "age")
    ) {
      _ = try person.observe(["firstName", "nme"], options: [.initial]) { _, _ in seen += 1 }
    }
    person.firstName = "B"
    #expect(seen == 0)
    let empty = try person.observe([String]()) { _, _ in seen += 1 }
    person.firstName = "C"
    #expect(seen == 0)
    withExtendedLifetime(empty) {}
  }

  @Test("a key path that cannot be observed, found only at registration, sends no .initial either")
  func severalNotObservable() throws {
    let person = Person(firstName: "A")
    var seen: [String] = []
    #expect(throws: KeyValueError.notObservable(key: "plain", type: "Person")) {
      _ = try person.observe(["firstName", "plain"], options: [.initial]) { path, _ in
        seen.append(path)
      }
    }
    person.firstName = "B"
    #expect(seen == [])
    #expect(person.observationRegistrar.triggerCount == 0)
  }

  @Test("observe([keyPaths]) takes a key of every element, as observing one key path does")
  func severalWithElements() throws {
    let shelf = Shelf()
    let book = Book(title: "A", pages: 1)
    shelf.books = [book]
    var seen: [String] = []
    let token = try shelf.observe(["books.pages", "name"], options: [.initial, .new]) {
      path, change in
      seen.append("\(path) \(change.kind) \(change.newValue.map { "\($0 ?? "nil")" } ?? "-")")
    }
    book.pages = 2
    shelf.name = "S"
    #expect(
      seen == [
        "books.pages setting [Optional(1)]", "name setting ",
        "books.pages replacement [Optional(2)]",
        "name setting S",
      ])
    withExtendedLifetime(token) {}
  }

  @Test("an observer may remove itself from inside its .initial notification")
  func removalInsideInitial() throws {
    let person = Person(firstName: "A")
    let recorder = Recorder()
    recorder.onChange = { object, _ in
      (object as? Person)?.removeObserver(recorder, forKeyPath: "firstName")
    }
    try person.addObserver(recorder, forKeyPath: "firstName", options: [.initial, .new])
    person.firstName = "B"
    #expect(recorder.received == ["firstName -->A"])
    #expect(person.observationRegistrar.triggerCount == 0)
  }

  @Test("an observer removing itself in a first notification that races addObserver is removed")
  func removalRacingAddObserver() {
    let person = Person()
    let done = Atomic<Bool>(false)
    let removers = Locked<[SelfRemover]>([])
    race(workers: 3) { worker in
      guard worker == 0 else {
        while !done.load(ordering: .acquiring) { person.firstName = "set" }
        return
      }
      for _ in 0..<10_000 {
        let remover = SelfRemover(person)
        removers.withLock { $0.append(remover) }
        try? person.addObserver(remover, forKeyPath: "firstName")
      }
      done.store(true, ordering: .releasing)
    }
    // The first notification of the observers that had none.
    person.firstName = "last"
    #expect(person.observationRegistrar.triggerCount == 0)
  }
}
