import KVOLite
import Testing

// The README's first example, compiled and run with only `import KVOLite`.

/// The README's namespace, so that its type names do not clash with other fixtures.
enum Readme {
  class PostalAddress: KeyValueObservable {
    let observationRegistrar = ObservationRegistrar()
    @Observed var street = ""
  }

  class Person: KeyValueObservable {
    let observationRegistrar = ObservationRegistrar()
    @Observed var firstName = ""
    @Observed var postalAddress = PostalAddress()
  }
}

@Suite("README")
struct ReadmeTests {
  @Test("the first example observes a key and a chain, each change once, old and new values")
  func firstExample() throws {
    typealias Person = Readme.Person
    typealias PostalAddress = Readme.PostalAddress
    var seen: [String] = []
    let person = Person()
    let names = person.observe(\.firstName, options: [.old, .new]) { _, change in
      seen.append("\(change.oldValue!) -> \(change.newValue!)")
    }
    let streets = try person.observe("postalAddress.street", options: [.new]) { change in
      seen.append("street: \(change.newValue as? String ?? "nil")")
    }
    person.firstName = "Ann"
    person.postalAddress = PostalAddress()
    person.postalAddress.street = "1 Main St"
    // seen == [" -> Ann", "street: ", "street: 1 Main St"]
    #expect(seen == [" -> Ann", "street: ", "street: 1 Main St"])
    _ = (names, streets)
  }
}
