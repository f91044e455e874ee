import Foundation
import KVOLite
import KVOLiteTestSupport
import Testing

/// A model whose declarations refine a found key, add another name for one, and a manual key.
private final class Ticket: KeyValueObservable, @unchecked Sendable {
  let observationRegistrar = ObservationRegistrar()
  static let observableKeys: ObservableKeys<Ticket> = [
    .attribute("seats", \.seats, validate: { max(1, $0) }),
    .attribute("heading", \.title),
  ]
  @Observed var title = ""
  @Observed var seats = 1
}

/// A declaration of another property under a found key's name.
private final class Clash: KeyValueObservable, @unchecked Sendable {
  let observationRegistrar = ObservationRegistrar()
  static let observableKeys: ObservableKeys<Clash> = [.attribute("title", \.subtitle)]
  @Observed var title = ""
  @Observed var subtitle = ""
}

/// A derived key named like a stored property.
private final class Shadow: KeyValueObservable, @unchecked Sendable {
  let observationRegistrar = ObservationRegistrar()
  static let observableKeys: ObservableKeys<Shadow> = [
    .derived("title", \.headline, affectedBy: ["title"])
  ]
  @Observed var title = ""
  var headline: String { title.uppercased() }
}

/// What a class declares is merged with what is found: a declaration of a found property
/// refines its key, one under another name is another name of it, and a conflict is an error
/// that names both.
@Suite("Declared keys merged with found ones")
struct DeclaredAndFoundKeysTests {
  @Test("a declaration of an @Observed property under its name refines the found key")
  func refinement() throws {
    let ticket = Ticket()
    #expect(Ticket.allObservableKeys.keys.map(\.name) == ["title", "seats", "heading"])
    try ticket.setValue(-3, forKeyPath: "seats")
    #expect(ticket.seats == 1)
    let counter = Counter()
    let token = ticket.observe(\.seats) { _, _ in counter.increment() }
    ticket.seats = 4
    #expect(counter.count == 1)
    _ = token
  }

  @Test("a declaration under another name is another name of the property's key, notified alike")
  func anotherName() throws {
    let ticket = Ticket()
    let log = Log<String>()
    let heading = try ticket.observe("heading", options: [.new]) { change in
      log.append("heading \(change.newValue! ?? "nil")")
    }
    let title = ticket.observe(\.title, options: [.new]) { _, change in
      log.append("title \(change.newValue!)")
    }
    ticket.title = "Gala"
    try ticket.setValue("Opera", forKeyPath: "heading")
    #expect(ticket.title == "Opera")
    #expect(log.all == ["heading Gala", "title Gala", "heading Opera", "title Opera"])
    _ = (heading, title)
  }

  @Test("another property declared under a found key's name stops the program, naming both")
  func clash() async throws {
    let result = try #require(
      await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        // Key-value coding checks as observing does: the first use of the class with an object.
        _ = try? Clash().value(forKey: "subtitle")
      })
    let message = String(decoding: result.standardErrorContent, as: UTF8.self)
    #expect(
      message.contains(
        #"KVOLite: Clash.observableKeys declares "title" with the key path of another property (the key "subtitle"), but Clash.title is an @Observed property, which is the key "title": declare \.title under that name, or give the declaration another name"#
      ))
  }

  @Test("a derived key named like a stored property stops the program, naming both")
  func derivedShadowsStored() async throws {
    let result = try #require(
      await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        _ = Shadow.allObservableKeys
      })
    let message = String(decoding: result.standardErrorContent, as: UTF8.self)
    #expect(
      message.contains(
        #"KVOLite: Shadow.observableKeys declares "title" as a derived key, but Shadow.title is an @Observed property: a stored property is already its own key; remove the declaration or rename it"#
      ))
  }

  @Test(
    "models that list every key, as before, keep working: the list is merged with what is found")
  func legacyLists() throws {
    // The fixtures declare each key, including their @Observed properties.
    #expect(
      Address.allObservableKeys.keys.map(\.name) == ["street", "city"])
    let parcel = Parcel()
    let counter = Counter()
    let token = parcel.observe(\.recipient.address.street) { _, _ in counter.increment() }
    parcel.recipient.address.street = "1 Main St"
    try parcel.setValue("2 Side St", forKeyPath: "recipient.address.street")
    #expect(counter.count == 2)
    _ = token
  }
}
