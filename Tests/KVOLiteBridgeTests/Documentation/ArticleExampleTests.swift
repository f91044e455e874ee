import Foundation
import KVOLiteBridge
import KVOLiteTestSupport
import Testing

// The DocC articles' examples, run: each test holds one article's code as it is printed there,
// followed by what the article says it does, checked.

extension Articles {
  @Suite("DocC articles' examples")
  struct ExampleTests {
    @Test("Getting started: typed, string and publisher observation")
    func gettingStarted() throws {
      let contact = Contact()
      var seen: [String] = []
      let token = contact.observe(\.firstName, options: [.old, .new]) { contact, change in
        seen.append("\(change.oldValue!) -> \(change.newValue!)")
      }
      contact.firstName = "Ann"
      // seen == [" -> Ann"]
      #expect(seen == [" -> Ann"])

      let streets = try contact.observe("address.street", options: [.new]) { change in
        seen.append("street: \(change.newValue! ?? "nil")")
      }
      contact.address = StreetAddress()
      contact.address.street = "1 Main St"
      // seen == [" -> Ann", "street: ", "street: 1 Main St"]
      #expect(seen == [" -> Ann", "street: ", "street: 1 Main St"])

      let cancellable = contact.publisher(for: \.fullName).sink { seen.append($0) }
      contact.lastName = "Lee"
      // seen ends with "Ann ", "Ann Lee": the current value, then each new one
      #expect(seen.suffix(2) == ["Ann ", "Ann Lee"])
      token.invalidate()
      _ = (streets, cancellable)
    }

    @Test("Observing: .initial and .prior, in registration order")
    func options() {
      let contact = Contact()
      var seen: [String] = []
      let token = contact.observe(\.lastName, options: [.initial, .prior, .old, .new]) {
        _, change in
        seen.append(change.isPrior ? "will: \(change.oldValue!)" : "did: \(change.newValue!)")
      }
      contact.lastName = "Lee"
      // seen == ["did: ", "will: ", "did: Lee"]
      #expect(seen == ["did: ", "will: ", "did: Lee"])
      _ = token
    }

    @Test("Observing: a chain re-wires when an intermediate is replaced")
    func chains() {
      let contact = Contact()
      var streets: [String] = []
      let token = contact.observe(\.address.street, options: [.new]) { _, change in
        streets.append(change.newValue!)
      }
      let old = contact.address
      contact.address = StreetAddress()  // one notification: the street is now ""
      old.street = "ignored"  // detached: nothing
      contact.address.street = "2 High St"
      // streets == ["", "2 High St"]
      #expect(streets == ["", "2 High St"])
      _ = token
    }

    @Test("Observing: to-many changes carry their kind and indexes")
    func toMany() throws {
      let order = Order()
      var changes: [String] = []
      let token = order.observe(\.items, options: [.new]) { _, change in
        changes.append("\(change.kind) \(Array(change.indexes ?? []))")
      }
      let items = order.mutableArrayValue(for: \.items)
      items.append(LineItem("Book", price: 12))
      try items.insert(LineItem("Pen", price: 2), at: 0)  // an index out of range throws
      _ = try items.remove(at: 1)
      // changes == ["insertion [0]", "insertion [0]", "removal [1]"]
      #expect(changes == ["insertion [0]", "insertion [0]", "removal [1]"])
      _ = token
    }

    @Test("Observing: a manually notified key")
    func manualNotification() throws {
      let order = Order()
      var statuses: [String] = []
      let token = order.observe(\.status, options: [.new]) { _, change in
        statuses.append(change.newValue!)
      }
      order.setStatus("paid")
      order.setStatus("paid")  // no change, no notification
      // statuses == ["paid"]
      #expect(statuses == ["paid"])
      _ = token
    }

    @Test("Key-value coding: string key paths, text, operators and typed errors")
    func keyValueCoding() throws {
      let order = Order()
      let items = [LineItem("Book", price: 12), LineItem("Pen", price: 2)]
      try order.setValue(items, forKeyPath: "items")
      try order.setValue(fromText: "Notebook", forKeyPath: "items.0.title")
      let total = try order.value(forKeyPath: "items.@sum.price")  // 14.0
      let titles = try order.value(forKeyPath: "items.@unionOfObjects.title")
      // titles == ["Notebook", "Pen"]
      // What was wrong, with the key path; the price is unchanged.
      let error = #expect(throws: KeyValueError.self) {
        try order.setValue(fromText: "cheap", forKeyPath: "items.1.price")
      }
      #expect(
        error.map { "\($0)" }
          == #""items.1.price" expects a number (Double), and "cheap" is not one"#)
      #expect(total as? Double == 14)
      #expect(titles as? [String] == ["Notebook", "Pen"])
      #expect(order.items[1].price == 2)
      #expect(throws: KeyValueError.self) { try order.value(forKeyPath: "itmes") }
    }

    @Test("Porting: the ported view model mirrors both ways, once each")
    func porting() {
      let contact = Contact()
      let viewModel = ContactViewModel(contact: contact)
      contact.firstName = "Ann"  // reaches the view model
      viewModel.firstName = "Bo"  // reaches the model
      // contact.firstName == "Bo", viewModel.firstName == "Bo"
      #expect(contact.firstName == "Bo" && viewModel.firstName == "Bo")
    }

    @Test("Threads and lifetimes: a token ends its observation when released")
    func lifetimes() {
      let contact = Contact()
      var count = 0
      var token: ObservationToken? = contact.observe(\.firstName) { _, _ in count += 1 }
      contact.firstName = "Ann"  // count == 1
      token = nil  // released: the observation ends
      contact.firstName = "Bo"  // count is still 1
      #expect(count == 1 && token == nil)
    }
  }
}
