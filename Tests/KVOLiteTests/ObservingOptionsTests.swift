import KVOLite
import KVOLiteTestSupport
import Testing

@Suite("Observing options")
struct ObservingOptionsTests {
  @Test("no options: one notification per set, with only the kind")
  func noOptions() throws {
    let person = Person(firstName: "A")
    let log = Log<KeyValueChange<String>>()
    let token = person.observe(\.firstName) { _, change in log.append(change) }
    person.firstName = "B"
    #expect(log.all == [KeyValueChange(kind: .setting)])
    _ = token
  }

  @Test("initial fires before observe returns and carries no old value")
  func initialBeforeReturn() throws {
    let person = Person(firstName: "A")
    let log = Log<KeyValueChange<String>>()
    let token = person.observe(\.firstName, options: [.initial, .old, .new]) { _, change in
      log.append(change)
    }
    #expect(log.all == [KeyValueChange(kind: .setting, newValue: "A")])
    person.firstName = "B"
    #expect(
      log.all == [
        KeyValueChange(kind: .setting, newValue: "A"),
        KeyValueChange(kind: .setting, oldValue: "A", newValue: "B"),
      ])
    _ = token
  }

  @Test("initial without new carries no value at all")
  func initialWithoutNew() throws {
    let person = Person(firstName: "A")
    let log = Log<KeyValueChange<String>>()
    let token = person.observe(\.firstName, options: [.initial, .old]) { _, change in
      log.append(change)
    }
    #expect(log.all == [KeyValueChange(kind: .setting)])
    _ = token
  }

  @Test("prior carries old and never new; the post notification is unchanged")
  func priorCarriesOldOnly() throws {
    let person = Person(firstName: "A")
    let log = Log<KeyValueChange<String>>()
    let token = person.observe(\.firstName, options: [.prior, .old, .new]) { _, change in
      log.append(change)
    }
    person.firstName = "B"
    #expect(
      log.all == [
        KeyValueChange(kind: .setting, oldValue: "A", isPrior: true),
        KeyValueChange(kind: .setting, oldValue: "A", newValue: "B"),
      ])
    _ = token
  }

  @Test("prior sees the value before the change when it reads the property")
  func priorReadsOldValue() throws {
    let person = Person(firstName: "A")
    let log = Log<String>()
    let token = person.observe(\.firstName, options: [.prior]) { person, change in
      log.append("\(change.isPrior ? "prior" : "post") \(person.firstName)")
    }
    person.firstName = "B"
    #expect(log.all == ["prior A", "post B"])
    _ = token
  }

  @Test("an equal value still notifies")
  func equalValueNotifies() throws {
    let person = Person(firstName: "A")
    let log = Log<KeyValueChange<String>>()
    let token = person.observe(\.firstName, options: [.old, .new]) { _, change in
      log.append(change)
    }
    person.firstName = "A"
    person.firstName = "A"
    #expect(
      log.all
        == Array(repeating: KeyValueChange(kind: .setting, oldValue: "A", newValue: "A"), count: 2))
    _ = token
  }

  @Test("an optional property reports nil as .some(nil) when asked for")
  func optionalValues() throws {
    let person = Person()
    let log = Log<KeyValueChange<String?>>()
    let token = person.observe(\.nickname, options: [.initial, .old, .new]) { _, change in
      log.append(change)
    }
    person.nickname = "Al"
    person.nickname = nil
    #expect(
      log.all == [
        KeyValueChange(kind: .setting, newValue: .some(nil)),
        KeyValueChange(kind: .setting, oldValue: .some(nil), newValue: "Al"),
        KeyValueChange(kind: .setting, oldValue: "Al", newValue: .some(nil)),
      ])
    _ = token
  }

  @Test("two observers of one key do not share options")
  func optionsDoNotLeak() throws {
    let person = Person(firstName: "A")
    let log = Log<String>()
    let first = person.observe(\.firstName, options: [.new]) { _, change in
      log.append("first \(change)")
    }
    let second = person.observe(\.firstName, options: [.old, .new, .prior]) { _, change in
      log.append("second \(change)")
    }
    person.firstName = "B"
    #expect(
      log.all == [
        #"second prior setting old: "A""#,
        #"first setting new: "B""#,
        #"second setting old: "A" new: "B""#,
      ])
    _ = (first, second)
  }

  @Test("no notification for keys that were not set")
  func untouchedKeysAreQuiet() throws {
    let person = Person()
    let counter = Counter()
    let token = person.observe(\.lastName) { _, _ in counter.increment() }
    person.firstName = "X"
    person.age = 3
    #expect(counter.count == 0)
    _ = token
  }

  @Test("options describe themselves")
  func optionsDescription() {
    #expect(
      ObservingOptions([.new, .old, .initial, .prior]).description == "[initial, old, new, prior]")
    #expect(ObservingOptions().description == "[]")
  }
}
