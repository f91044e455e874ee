// swift-format-ignore-file: AllPublicDeclarationsHaveDocumentation

// Test fixtures: what each member is for is in its type's comment or its name.
import Foundation
import KVOLite

/// An enum with a text form, for text conversion.
public enum Priority: String, KeyValueTextConvertible, Sendable {
  case low, normal, high
}

/// An immutable element of a to-many relationship.
public final class Item: KeyValueObservable, @unchecked Sendable, CustomStringConvertible {
  public let observationRegistrar = ObservationRegistrar()
  public static let observableKeys: ObservableKeys<Item> = [
    .attribute("title", \.title),
    .attribute("quantity", \.quantity),
    .attribute("weight", \.weight),
    .attribute("note", \.note),
  ]
  public let title: String
  public let quantity: Int
  public let weight: Double
  public let note: String?

  public init(_ title: String, quantity: Int = 1, weight: Double = 0, note: String? = nil) {
    self.title = title
    self.quantity = quantity
    self.weight = weight
    self.note = note
  }

  public var description: String { title }
}

/// A validation failure with a readable description.
public struct Rejected: Error, CustomStringConvertible {
  public let description: String
}

/// Everything key-value coding has to handle, in one type.
public final class Order: KeyValueObservable, @unchecked Sendable {
  public let observationRegistrar = ObservationRegistrar()
  public static let observableKeys: ObservableKeys<Order> = [
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
  @Observed public var items: [Item] = []
  @Observed public var tags: [String] = []
  @Observed public var note: String? = nil
  @Observed public var priority = Priority.normal
  @Observed public var total: Decimal = 0
  @Observed public var rush = false
  @Observed public var quantity = 1
  @Observed public var code = ""
  public let id = 7
  @Observed public var base = 0
  /// A value type without a text form.
  @Observed public var shipping = Shipping()
  @Observed public var customer: Person? = nil

  public var itemCount: Int { items.count }
  public var summary: String { "\(customer?.fullName ?? "-"): \(items.count)" }
  public var names: String { "\(customer?.firstName ?? "") \(customer?.lastName ?? "")" }
  public init() {}

  public var x: Int { base + 1 }
  public var y: Int { x * 2 }
}

/// A value without a text form.
public struct Shipping: Equatable, Sendable {
  public var days = 3

  public init(days: Int = 3) { self.days = days }
}
