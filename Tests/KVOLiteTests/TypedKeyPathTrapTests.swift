import Foundation
import KVOLite
import KVOLiteTestSupport
import StrippedReflectionFixture
import Testing

/// A typed key path that cannot be observed is a programming error, as in Foundation: the
/// program stops, with a message that names the type and the key. Each case runs in a child
/// process (an exit test) and checks the whole diagnosis.
@Suite("Typed key paths that cannot be observed")
struct TypedKeyPathTrapTests {
  @Test(
    "a plain stored property stops the program, naming the property and the fix, and lists the class's other problems"
  )
  func plainProperty() async throws {
    let result = try #require(
      await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        _ = Person().observe(\.unobserved) { _, _ in }
      })
    let message = String(decoding: result.standardErrorContent, as: UTF8.self)
    #expect(
      message.contains(
        #"KVOLite: cannot observe Person.unobserved: it is not an @Observed property, so it never notifies (mark it @Observed); Person has another problem: "plain" of Person is not an @Observed property, so it never notifies: mark it @Observed (or declare it with notifiesAutomatically: false and notify manually, or as a derived key)"#
      ))
  }

  @Test("a computed property that reads no @Observed property stops the program, naming the fix")
  func undeclaredComputed() async throws {
    let result = try #require(
      await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        _ = Address().observe(\.line) { _, _ in }
      })
    let message = String(decoding: result.standardErrorContent, as: UTF8.self)
    #expect(
      message.contains(
        "KVOLite: cannot observe the key path from Address to String: it is a computed property that reads no @Observed property, so it never notifies; mark the stored properties it reads @Observed"
      ))
  }

  @Test(
    "a computed property that reads only plain vars stops the program, naming them and the fix")
  func computedOverPlainVars() async throws {
    let result = try #require(
      await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        _ = Chant().observe(\.shout) { _, _ in }
      })
    let message = String(decoding: result.standardErrorContent, as: UTF8.self)
    #expect(
      message.contains(
        "KVOLite: cannot observe the key path from Chant to String: it is a computed property that reads no @Observed property, so it never notifies; mark the stored properties it reads @Observed (Chant's that are not: motto, volume)\n"
      ))
  }

  @Test("declarations with several bad names stop the program with one message listing them all")
  func badNames() async throws {
    let result = try #require(
      await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        _ = ObservableKeys<Person>([
          .attribute("firstName", \.firstName), .attribute("a.b", \.lastName),
          .attribute("firstName", \.age),
        ])
      })
    let message = String(decoding: result.standardErrorContent, as: UTF8.self)
    #expect(
      message.contains(
        #"Person.observableKeys: "a.b" is not a valid key name; "firstName" is declared twice"#))
  }

  @Test("a class of more than 65,535 keys stops the program, saying so (a key's index is 16 bits)")
  func tooManyKeys() async throws {
    let result = try #require(
      await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        _ = ObservableKeys<Person>((0...65_535).map { .attribute("key\($0)", \.firstName) })
      })
    let message = String(decoding: result.standardErrorContent, as: UTF8.self)
    #expect(
      message.contains("Person.observableKeys: 65536 keys are more than the 65535 a class may have")
    )
  }

  @Test("a declared key that is not @Observed stops the program, naming the type and the key")
  func notObserved() async throws {
    let result = try #require(
      await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        _ = Person().observe(\.plain) { _, _ in }
      })
    let message = String(decoding: result.standardErrorContent, as: UTF8.self)
    #expect(
      message.contains(
        #"KVOLite: cannot observe Person.plain: "plain" of Person is not an @Observed property, so it never notifies"#
      ))
  }

  @Test("a derived key whose affecting path does not resolve stops the program")
  func brokenDerivedKey() async throws {
    let result = try #require(
      await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        _ = Broken().observe(\.derived) { _, _ in }
      })
    let message = String(decoding: result.standardErrorContent, as: UTF8.self)
    #expect(
      message.contains(
        #"KVOLite: cannot observe Broken.derived: Address has no key "nope" (after "address")"#))
  }

  @Test(
    "a derived key affected by a key its class lacks stops the program at the class's first use, naming both and the close match"
  )
  func mistypedAffectingKey() async throws {
    let result = try #require(
      await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        _ = try? MistypedTeam().value(forKey: "members")
      })
    let message = String(decoding: result.standardErrorContent, as: UTF8.self)
    #expect(
      message.contains(
        #"KVOLite: MistypedTeam.observableKeys declares the derived key "total" affected by "membrs.count", but MistypedTeam has no key "membrs"; did you mean "members"?"#
      ))
  }

  @Test(
    "a model built without reflection metadata stops the program at its first use, naming the cause"
  )
  func strippedReflection() async throws {
    let result = try #require(
      await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        _ = StrippedModel().observe(\.name) { _, _ in }
      })
    let message = String(decoding: result.standardErrorContent, as: UTF8.self)
    #expect(
      message.contains(
        "KVOLite: the Swift runtime lists no stored property of StrippedModel, not even its observationRegistrar, so its @Observed properties cannot be found: its module was built without reflection metadata (-disable-reflection-metadata or -reflection-metadata-for-debugger-only); build it with reflection metadata"
      ))
  }

}

/// A computed property over plain `var`s, which never notify.
final class Chant: KeyValueObservable {
  let observationRegistrar = ObservationRegistrar()
  @Observed var team = "Reds"
  var motto = "go"
  var volume = 1
  var shout: String { motto.uppercased() + String(repeating: "!", count: volume) }
}

extension Address {
  /// Computed, reading no `@Observed` property, and not declared: nothing to observe.
  fileprivate var line: String { String(repeating: "-", count: 3) }
}

/// A derived key whose affecting path starts with a key the class does not have.
final class MistypedTeam: KeyValueObservable {
  let observationRegistrar = ObservationRegistrar()
  static let observableKeys: ObservableKeys<MistypedTeam> = [
    .derived("total", \.total, affectedBy: ["members", "membrs.count"])
  ]
  @Observed var members = 0
  var total: Int { members }
}
