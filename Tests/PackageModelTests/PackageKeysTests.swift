import KVOLite
import PackageModel
import Testing

@Suite("Package keys")
struct PackageKeysTests {
  @Test("a change of the recipient's street reaches an observer of the whole chain")
  func streetChain() throws {
    let package = Package(recipient: Person(firstName: "Ann", postalAddress: PostalAddress(street: "1 Main St")))
    var seen: [String] = []
    let token = try package.observe(\.recipient.postalAddress.street, options: [.old, .new]) { _, change in
      seen.append("\(change.oldValue ?? "-") -> \(change.newValue ?? "-")")
    }
    package.recipient.postalAddress.street = "2 Side St"
    package.recipient.postalAddress = PostalAddress(street: "3 High St")
    package.recipient = Person(postalAddress: PostalAddress(street: "4 Low St"))
    #expect(seen == ["1 Main St -> 2 Side St", "2 Side St -> 3 High St", "3 High St -> 4 Low St"])
    _ = token
  }
}
