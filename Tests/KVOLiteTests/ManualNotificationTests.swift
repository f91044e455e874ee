import KVOLite
import KVOLiteTestSupport
import Synchronization
import Testing

@Suite("Manual notification")
struct ManualNotificationTests {
  @Test("a key with automatic notification off notifies nothing when set")
  func automaticOff() throws {
    let person = Person()
    let counter = Counter()
    let token = person.observe(\.manual) { _, _ in counter.increment() }
    person.manual = 1
    #expect(counter.count == 0)
    #expect(person.manual == 1)
    _ = token
  }

  @Test("initial still fires for a key with automatic notification off")
  func initialStillFires() throws {
    let person = Person()
    let log = Log<KeyValueChange<Int>>()
    let token = person.observe(\.manual, options: [.initial, .new]) { _, change in
      log.append(change)
    }
    #expect(log.all == [KeyValueChange(kind: .setting, newValue: 0)])
    _ = token
  }

  @Test("a will/did pair delivers prior and post notifications with old and new")
  func manualPair() throws {
    let person = Person()
    let log = Log<KeyValueChange<Int>>()
    let token = person.observe(\.manual, options: [.old, .new, .prior]) { _, change in
      log.append(change)
    }
    person.willChangeValue(for: \.manual)
    person.manual = 7
    person.didChangeValue(for: \.manual)
    #expect(
      log.all == [
        KeyValueChange(kind: .setting, oldValue: 0, isPrior: true),
        KeyValueChange(kind: .setting, oldValue: 0, newValue: 7),
      ])
    _ = token
  }

  @Test("manual notification by key name reaches chain observers too")
  func manualByName() throws {
    let parcel = Parcel()
    let log = Log<String>()
    let token = try parcel.observe("recipient.manual", options: [.old, .new]) { change in
      log.append(
        "\(change.oldValue.flatMap { $0 } ?? "-") -> \(change.newValue.flatMap { $0 } ?? "-")")
    }
    try parcel.recipient.willChangeValue(forKey: "manual")
    parcel.recipient.manual = 3
    try parcel.recipient.didChangeValue(forKey: "manual")
    #expect(log.all == ["0 -> 3"])
    _ = token
  }

  @Test("nested will/will/did/did pairs for one key deliver two notifications, inner first")
  func nestedPairs() throws {
    let person = Person()
    let log = Log<String>()
    let token = person.observe(\.manual, options: [.old, .new]) { _, change in
      log.append("\(change.oldValue!) -> \(change.newValue!)")
    }
    person.willChangeValue(for: \.manual)
    person.manual = 1
    person.willChangeValue(for: \.manual)
    person.manual = 2
    person.didChangeValue(for: \.manual)
    person.didChangeValue(for: \.manual)
    #expect(log.all == ["1 -> 2", "0 -> 2"])
    _ = token
  }

  @Test("pairs for two keys interleaved deliver in the order of the did calls")
  func interleavedKeys() throws {
    let person = Person()
    let log = Log<String>()
    let a = person.observe(\.manual) { _, _ in log.append("manual") }
    let b = person.observe(\.age) { _, _ in log.append("age") }
    person.willChangeValue(for: \.manual)
    person.willChangeValue(for: \.age)
    person.didChangeValue(for: \.manual)
    person.didChangeValue(for: \.age)
    #expect(log.all == ["manual", "age"])
    _ = (a, b)
  }

  @Test("a did without a will does nothing")
  func unpairedDid() throws {
    let person = Person()
    let counter = Counter()
    let token = person.observe(\.age) { _, _ in counter.increment() }
    person.didChangeValue(for: \.age)
    try person.didChangeValue(forKey: "age")
    #expect(counter.count == 0)
    _ = token
  }

  @Test("an extra manual pair around an automatic set gives one notification each")
  func manualAroundAutomatic() throws {
    let person = Person()
    let counter = Counter()
    let token = person.observe(\.age) { _, _ in counter.increment() }
    let printed = Mutex<[String]>([])
    let pair = {
      person.willChangeValue(for: \.age)
      person.age = 1
      person.didChangeValue(for: \.age)
    }
    ManualPairWarning.capturing({ message in printed.withLock { $0.append(message) } }, pair)
    #expect(counter.count == 2)
    #if DEBUG
      // Said once, in debug builds (the only test that sets Person.age inside a pair).
      #expect(
        printed.withLock { $0 }.filter { $0.contains("Person.age") }
          == [ManualPairWarning.message(type: "Person", key: "age")])
    #endif
    _ = token
  }

  @Test(
    "typed manual notification does not throw, as Foundation's: a key path that is not a key stops the program"
  )
  func typedManualErrors() async {
    await #expect(processExitsWith: .failure) {
      Person().willChangeValue(for: \.unobserved)
    }
    await #expect(processExitsWith: .failure) {
      Person().didChangeValue(for: \.unobserved)
    }
  }

  @Test("manual notification of a key that is not declared, or of a dotted key, throws")
  func manualErrors() {
    let person = Person()
    #expect(
      throws: KeyValueError.unknownKey(
        key: "unobserved", type: "Person", path: "", suggestion: nil)
    ) {
      try person.willChangeValue(forKey: "unobserved")
    }
    #expect(
      throws: KeyValueError.malformedKeyPath(
        path: "address.street", reason: "manual notification takes a single key")
    ) {
      try person.didChangeValue(forKey: "address.street")
    }
  }

  @Test(
    "a pair whose will-time announces the new value reports it, whatever the key holds at did-time")
  func announcedNewValue() throws {
    let person = Person()
    let log = Log<KeyValueChange<Int>>()
    let token = person.observe(\.manual, options: [.old, .new]) { _, change in log.append(change) }
    try person.willChangeValue(for: \.manual, to: 5)
    person.manual = 5
    // Another thread's set, between this set's store and its did-time.
    person.manual = 6
    person.didChangeValue(for: \.manual)
    #expect(log.all == [KeyValueChange(kind: .setting, oldValue: 0, newValue: 5)])
    _ = token
  }
}
