import Foundation
import KVOLite
import KVOLiteTestSupport
import Testing

@Suite("Collection operators")
struct CollectionOperatorTests {
  static func order(_ items: [Item]) -> Order {
    let order = Order()
    order.items = items
    return order
  }

  static let items = [
    Item("Book", quantity: 2, weight: 1.5, note: "gift"),
    Item("Mug", quantity: 1, weight: 0.25),
    Item("Book", quantity: 3, weight: 1.25, note: "gift"),
  ]

  @Test("count, sum, average, minimum and maximum")
  func arithmetic() throws {
    let order = Self.order(Self.items)
    #expect(try order.value(forKeyPath: "items.@count") as? Int == 3)
    #expect(try order.value(forKeyPath: "items.@sum.quantity") as? Int == 6)
    #expect(try order.value(forKeyPath: "items.@sum.weight") as? Double == 3.0)
    #expect(try order.value(forKeyPath: "items.@avg.quantity") as? Double == 2.0)
    #expect(try order.value(forKeyPath: "items.@min.weight") as? Double == 0.25)
    #expect(try order.value(forKeyPath: "items.@max.quantity") as? Int == 3)
    #expect(try order.value(forKeyPath: "items.@min.title") as? String == "Book")
    #expect(try order.value(forKeyPath: "items.@max.title") as? String == "Mug")
  }

  @Test("unions keep duplicates or drop them, in first-seen order, skipping nil")
  func unions() throws {
    let order = Self.order(Self.items)
    #expect(
      try order.value(forKeyPath: "items.@unionOfObjects.title") as? [String] == [
        "Book", "Mug", "Book",
      ])
    #expect(
      try order.value(forKeyPath: "items.@distinctUnionOfObjects.title") as? [String] == [
        "Book", "Mug",
      ])
    #expect(
      try order.value(forKeyPath: "items.@unionOfObjects.note") as? [String] == ["gift", "gift"])
  }

  @Test("Apple's edge cases: @sum of nothing is 0, @avg/@min/@max of nothing are nil")
  func emptyCollections() throws {
    let order = Self.order([])
    #expect(try order.value(forKeyPath: "items.@count") as? Int == 0)
    #expect(try order.value(forKeyPath: "items.@sum.weight") as? Int == 0)
    #expect(try order.value(forKeyPath: "items.@avg.weight") == nil)
    #expect(try order.value(forKeyPath: "items.@min.weight") == nil)
    #expect(try order.value(forKeyPath: "items.@max.weight") == nil)
    #expect(try order.value(forKeyPath: "items.@unionOfObjects.title") as? [String] == [])
  }

  @Test("@count ignores a right-hand path; nil values are skipped by @min and @max")
  func countAndNils() throws {
    let order = Self.order(Self.items)
    #expect(try order.value(forKeyPath: "items.@count.whatever.follows") as? Int == 3)
    #expect(try order.value(forKeyPath: "items.@min.note") as? String == "gift")
  }

  @Test("arithmetic on text is an error naming what was expected")
  func nonNumeric() {
    let order = Self.order(Self.items)
    #expect(
      throws: KeyValueError.typeMismatch(
        path: "items.@sum.title", expected: "numbers", actual: "String")
    ) { _ = try order.value(forKeyPath: "items.@sum.title") }
  }

  @Test("operators compose with to-many relationships of values")
  func valueElements() throws {
    let order = Order()
    order.tags = ["b", "a", "b"]
    #expect(try order.value(forKeyPath: "tags.@count") as? Int == 3)
    #expect(
      throws: KeyValueError.misplacedOperator(
        operator: "@max", path: "tags.@max.x",
        reason: "the elements of \"tags\" have no declared keys")
    ) { _ = try order.value(forKeyPath: "tags.@max.x") }
  }

  @Test("an operator at the end of an observed path notifies as a setting")
  func observedOperator() throws {
    let order = Order()
    let log = Log<String>()
    let token = try order.observe("items.@sum.quantity", options: [.initial, .new]) { change in
      log.append("\(change.kind) \(change.newValue!!)")
    }
    order.mutableArrayValue(for: \.items).append(Item("Book", quantity: 2))
    order.items = []
    #expect(log.all == ["setting 0", "setting 2", "setting 0"])
    _ = token
  }
}
