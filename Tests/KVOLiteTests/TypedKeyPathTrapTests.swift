import Foundation
import KVOLite
import KVOLiteTestSupport
import Testing

/// A typed key path that cannot be observed is a programming error, as in Foundation: the
/// program stops, with a message that names the type and the key. Each case runs in a child
/// process (an exit test) and checks the whole diagnosis.
@Suite("Typed key paths that cannot be observed")
struct TypedKeyPathTrapTests {
  @Test(
    "an @Observed property not declared stops the program, naming the property, and lists the type's other problems"
  )
  func undeclared() async throws {
    let result = try #require(
      await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        _ = Person().observe(\.undeclared) { _, _ in }
      })
    let message = String(decoding: result.standardErrorContent, as: UTF8.self)
    #expect(
      message.contains(
        #"KVOLite: Person.undeclared is not declared in Person.observableKeys, so it cannot be observed (declare it there, for example as .attribute("undeclared", \.undeclared)); Person.observableKeys has another problem: "plain" of Person is not an @Observed property, so it never notifies: mark it @Observed"#
      ))
  }

  @Test("a plain stored property not declared is named too")
  func undeclaredPlain() async throws {
    let result = try #require(
      await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        _ = Person().observe(\.unobserved) { _, _ in }
      })
    let message = String(decoding: result.standardErrorContent, as: UTF8.self)
    #expect(message.contains("KVOLite: Person.unobserved is not declared in Person.observableKeys"))
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

  @Test("a declared key that is not @Observed stops the program, naming the type and the key")
  func notObserved() async throws {
    let result = try #require(
      await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        _ = Person().observe(\.plain) { _, _ in }
      })
    let message = String(decoding: result.standardErrorContent, as: UTF8.self)
    #expect(
      message.contains(
        #"KVOLite: cannot observe "plain" of Person is not an @Observed property, so it never notifies"#
      ))
  }

  @Test("a typed optional chain stops the program, pointing to string key paths")
  func optionalChain() async throws {
    let result = try #require(
      await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        _ = Parcel().observe(\.sender?.firstName) { _, _ in }
      })
    let message = String(decoding: result.standardErrorContent, as: UTF8.self)
    #expect(message.contains("is not made of keys declared in Parcel.observableKeys"))
    #expect(message.contains("is observed by string key path"))
  }

  @Test("a derived key whose affecting path does not resolve stops the program")
  func brokenDerivedKey() async throws {
    let result = try #require(
      await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        _ = Broken().observe(\.derived) { _, _ in }
      })
    let message = String(decoding: result.standardErrorContent, as: UTF8.self)
    #expect(message.contains(#"KVOLite: cannot observe Broken has no key "nope""#))
  }

}
