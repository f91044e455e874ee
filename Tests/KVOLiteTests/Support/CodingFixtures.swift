import Foundation
import KVOLite

/// An enum with a text form, for text conversion.
enum Priority: String, KeyValueTextConvertible, Sendable {
  case low, normal, high
}

/// An immutable element of a to-many relationship.
final class Item: KeyValueObservable, @unchecked Sendable, CustomStringConvertible {
  let observationRegistrar = ObservationRegistrar()
  static let observableKeys: ObservableKeys<Item> = [
    .attribute("title", \.title),
    .attribute("quantity", \.quantity),
    .attribute("weight", \.weight),
    .attribute("note", \.note),
  ]
  let title: String
  let quantity: Int
  let weight: Double
  let note: String?

  init(_ title: String, quantity: Int = 1, weight: Double = 0, note: String? = nil) {
    self.title = title
    self.quantity = quantity
    self.weight = weight
    self.note = note
  }

  var description: String { title }
}

/// A validation failure with a readable description.
struct Rejected: Error, CustomStringConvertible {
  let description: String
}

/// Everything key-value coding has to handle, in one type.
final class Order: KeyValueObservable, @unchecked Sendable {
  let observationRegistrar = ObservationRegistrar()
  static let observableKeys: ObservableKeys<Order> = [
    .toMany("items", \.items),
    .toMany("tags", \.tags),
    .attribute("note", \.note),
    .attribute("priority", \.priority),
    .attribute("total", \.total),
    .attribute("rush", \.rush),
    .attribute(
      "quantity", \.quantity,
      validate: { quantity in
        guard quantity >= 1 else { throw Rejected(description: "quantity must be at least 1") }
        return quantity
      }),
    .attribute("code", \.code, validate: { $0.uppercased() }),
    .attribute("id", \.id),
    .attribute("base", \.base),
    .attribute("shipping", \.shipping),
    .toOne("customer", \.customer),
    .derived("itemCount", \.itemCount, affectedBy: ["items"]),
    .derived("summary", \.summary, affectedBy: ["customer.fullName", "items"]),
    .derived("names", \.names, affectedBy: ["customer.firstName", "customer.lastName"]),
    .derived("x", \.x, affectedBy: ["y", "base"]),
    .derived("y", \.y, affectedBy: ["x"]),
  ]
  @Observed var items: [Item] = []
  @Observed var tags: [String] = []
  @Observed var note: String? = nil
  @Observed var priority = Priority.normal
  @Observed var total: Decimal = 0
  @Observed var rush = false
  @Observed var quantity = 1
  @Observed var code = ""
  let id = 7
  @Observed var base = 0
  /// A value type without a text form.
  @Observed var shipping = Shipping()
  @Observed var customer: Person? = nil

  var itemCount: Int { items.count }
  var summary: String { "\(customer?.fullName ?? "-"): \(items.count)" }
  var names: String { "\(customer?.firstName ?? "") \(customer?.lastName ?? "")" }
  var x: Int { base + 1 }
  var y: Int { x * 2 }
}

/// A value without a text form.
struct Shipping: Equatable, Sendable {
  var days = 3
}
