import KVOLite
import KVOLiteTestSupport
import Testing

/// A derived key's dependencies as Foundation declares them (`keyPathsForValuesAffecting<Key>`,
/// and `+keyPathsForValuesAffectingValueForKey:`): declared with `affectedBy`, a derived key is
/// affected by exactly those key paths — a key its getter reads but the list leaves out does
/// not notify, `[]` means nothing does, and a subclass's declaration replaces its superclass's.
/// Declared without `affectedBy`, its inputs are found by reading it.
@Suite("Foundation's dependencies")
struct FoundationDependencyTests {
  /// A person whose derived keys read `firstName` and `lastName`, declared in Foundation's ways.
  class Person: KeyValueObservable, @unchecked Sendable {
    let observationRegistrar = ObservationRegistrar()
    @Observed var firstName = "Ann"
    @Observed var lastName = "Smith"
    @Observed var middleName = ""
    /// A key that only batches edits: setting it announces `batched`.
    @Observed var trigger = 0

    var fullName: String { firstName + " " + lastName }
    var middle: String { firstName + " " + middleName + " " + lastName }
    var batched: String { firstName + " " + lastName }
    var fixed: String { firstName + " " + lastName }
    var found: String { firstName + " " + lastName }

    class var observableKeys: ObservableKeys<Person> {
      [
        .derived("fullName", \.fullName, affectedBy: ["firstName", "lastName"]),
        .derived("middle", \.middle, affectedBy: ["middleName"]),
        .derived("batched", \.batched, affectedBy: ["trigger"]),
        .derived("fixed", \.fixed, affectedBy: []),
        .derived("found", \.found),
      ]
    }
  }

  /// A subclass that declares `middle` again, affected by `firstName` too: its declaration
  /// replaces the superclass's (as an override of `keyPathsForValuesAffectingMiddle` does).
  final class Employee: Person, @unchecked Sendable {
    override class var observableKeys: ObservableKeys<Person> {
      super.observableKeys + [
        .derived("middle", \.middle, affectedBy: ["middleName", "firstName"])
      ]
    }
  }

  /// The new values `keyPath` of `person` delivers while `body` runs.
  static func heard(_ keyPath: String, of person: Person, _ body: () throws -> Void) throws
    -> [String]
  {
    let heard = Log<String>()
    let token = try person.observe(keyPath, options: [.new]) { change in
      heard.append((change.newValue ?? nil) as? String ?? "nil")
    }
    try body()
    token.invalidate()
    return heard.all
  }

  @Test("a simple dependency: each key it names notifies, once per change")
  func simpleDependency() throws {
    let person = Person()
    #expect(
      try Self.heard("fullName", of: person) {
        person.firstName = "Bo"
        person.lastName = "Lee"
      } == ["Bo Smith", "Bo Lee"])
  }

  @Test("a key the getter reads but the declaration leaves out does not notify")
  func undeclaredInputIsSilent() throws {
    let person = Person()
    #expect(
      try Self.heard("middle", of: person) {
        person.firstName = "Bo"
        person.lastName = "Lee"
        person.middleName = "J"
      } == ["Bo J Lee"])
  }

  @Test("a trigger key batches edits: only setting it notifies, with the edits made")
  func triggerKey() throws {
    let person = Person()
    #expect(
      try Self.heard("batched", of: person) {
        person.firstName = "Bo"
        person.lastName = "Lee"
        person.trigger += 1
      } == ["Bo Lee"])
  }

  @Test("affectedBy: [] — nothing affects the key; its own will/did pair still notifies")
  func emptyDependencies() throws {
    let person = Person()
    #expect(
      try Self.heard("fixed", of: person) {
        person.firstName = "Bo"
        try person.willChangeValue(forKey: "fixed")
        try person.didChangeValue(forKey: "fixed")
      } == ["Bo Smith"])
  }

  @Test("no affectedBy: the inputs are found by reading the getter")
  func foundByReading() throws {
    let person = Person()
    #expect(
      try Self.heard("found", of: person) {
        person.firstName = "Bo"
        person.middleName = "J"
        person.lastName = "Lee"
      } == ["Bo Smith", "Bo Lee"])
  }

  @Test("a subclass's declaration replaces its superclass's dependencies")
  func subclassDependencies() throws {
    let person = Person()
    let employee = Employee()
    let change = { (person: Person) in
      person.firstName = "Bo"
      person.middleName = "J"
    }
    #expect(try Self.heard("middle", of: person) { change(person) } == ["Bo J Smith"])
    #expect(
      try Self.heard("middle", of: employee) { change(employee) } == ["Bo  Smith", "Bo J Smith"])
  }

  @Test("by typed key path and at the end of a chain: the same declared dependencies")
  func typedAndChained() throws {
    final class Team: KeyValueObservable, @unchecked Sendable {
      let observationRegistrar = ObservationRegistrar()
      @Observed var lead = Person()
    }
    let team = Team()
    let heard = Log<String>()
    let typed = team.lead.observe(\.middle, options: [.new]) { _, change in
      heard.append("typed " + (change.newValue ?? "nil"))
    }
    let chained = try team.observe("lead.middle", options: [.new]) { change in
      heard.append("chain " + ((change.newValue ?? nil) as? String ?? "nil"))
    }
    team.lead.firstName = "Bo"
    team.lead.middleName = "J"
    #expect(heard.all == ["typed Bo J Smith", "chain Bo J Smith"])
    typed.invalidate()
    chained.invalidate()
  }
}
