import Foundation
import KVOLite
import KVOLiteTestSupport
import Testing

@Suite("Key-value coding")
struct KeyValueCodingTests {
  @Test("reads keys, chains, optional chains and indexed elements")
  func reads() throws {
    let order = Order()
    order.items = [Item("Book", quantity: 2), Item("Mug")]
    order.customer = Person(firstName: "Ann", address: Address(street: "1 Main"))
    #expect(try order.value(forKeyPath: "quantity") as? Int == 1)
    #expect(try order.value(forKeyPath: "customer.address.street") as? String == "1 Main")
    #expect(try order.value(forKeyPath: "customer.fullName") as? String == "Ann ")
    #expect(try order.value(forKeyPath: "items.1.title") as? String == "Mug")
    #expect(try order.value(forKeyPath: "items.0.quantity") as? Int == 2)
    #expect(try order.value(forKeyPath: "note") == nil)
    order.customer = nil
    #expect(try order.value(forKeyPath: "customer.address.street") == nil)
  }

  @Test("optionals read as their value or nil, each time a type comes back (types are cached)")
  func optionalsFlatten() throws {
    let person = Person(firstName: "Ann")
    let log = Log<String>()
    let token = try person.observe("nickname", options: [.old, .new]) { change in
      log.append("\(String(describing: change.oldValue)) → \(String(describing: change.newValue))")
    }
    for round in 0..<3 {
      person.nickname = "Al\(round)"
      #expect(try person.value(forKey: "nickname") as? String == "Al\(round)")
      #expect(try person.value(forKey: "age") as? Int == 0)
      person.nickname = nil
      #expect(try person.value(forKey: "nickname") == nil)
      #expect(try person.value(forKey: "friend") == nil)
    }
    #expect(
      log.all == [
        "Optional(nil) → Optional(Optional(\"Al0\"))",
        "Optional(Optional(\"Al0\")) → Optional(nil)",
        "Optional(nil) → Optional(Optional(\"Al1\"))",
        "Optional(Optional(\"Al1\")) → Optional(nil)",
        "Optional(nil) → Optional(Optional(\"Al2\"))",
        "Optional(Optional(\"Al2\")) → Optional(nil)",
      ])
    _ = token
  }

  @Test("a set through key-value coding notifies exactly once")
  func setNotifiesOnce() throws {
    let order = Order()
    let log = Log<KeyValueChange<Int>>()
    let token = order.observe(\.quantity, options: [.old, .new]) { _, change in log.append(change) }
    try order.setValue(5, forKeyPath: "quantity")
    #expect(order.quantity == 5)
    #expect(log.all == [KeyValueChange(kind: .setting, oldValue: 1, newValue: 5)])
    _ = token
  }

  @Test("sets through chains and to-one relationships")
  func setsThroughChains() throws {
    let order = Order()
    let ann = Person(firstName: "Ann")
    try order.setValue(ann, forKeyPath: "customer")
    try order.setValue("Bob", forKeyPath: "customer.firstName")
    #expect(order.customer === ann)
    #expect(ann.firstName == "Bob")
    try order.setValue(nil, forKeyPath: "customer")
    #expect(order.customer == nil)
  }

  @Test("optional values accept nil; non-optional ones reject it")
  func nilValues() throws {
    let order = Order()
    try order.setValue("hi", forKeyPath: "note")
    #expect(order.note == "hi")
    try order.setValue(nil, forKeyPath: "note")
    #expect(order.note == nil)
    #expect(throws: KeyValueError.nilForNonOptional(path: "quantity", expected: "Int")) {
      try order.setValue(nil, forKeyPath: "quantity")
    }
  }

  @Test("a value of the wrong type is rejected with both types named")
  func typeMismatch() {
    let order = Order()
    let expected = KeyValueError.typeMismatch(path: "quantity", expected: "Int", actual: "String")
    #expect(throws: expected) { try order.setValue("3", forKeyPath: "quantity") }
    #expect(expected.description == #""quantity" expects Int, not String"#)
  }

  @Test("derived and read-only keys cannot be set")
  func notSettable() {
    let order = Order()
    #expect(
      throws: KeyValueError.notSettable(key: "itemCount", type: "Order", reason: "it is derived")
    ) {
      try order.setValue(3, forKeyPath: "itemCount")
    }
    #expect(throws: KeyValueError.notSettable(key: "id", type: "Order", reason: "it is read-only"))
    {
      try order.setValue(3, forKeyPath: "id")
    }
    #expect(
      throws: KeyValueError.notSettable(key: "title", type: "Item", reason: "it is read-only")
    ) {
      order.items = [Item("Book")]
      try order.setValue("Pen", forKeyPath: "items.0.title")
    }
  }

  @Test("a validation hook may coerce a value")
  func validationCoerces() throws {
    let order = Order()
    try order.setValue("abc", forKeyPath: "code")
    #expect(order.code == "ABC")
  }

  @Test("a rejected value leaves the value and the observers untouched")
  func failedSetChangesNothing() throws {
    let order = Order()
    let counter = Counter()
    let token = order.observe(\.quantity, options: [.prior]) { _, _ in counter.increment() }
    let expected = KeyValueError.validationFailed(
      path: "quantity", reason: "quantity must be at least 1")
    #expect(throws: expected) { try order.setValue(0, forKeyPath: "quantity") }
    #expect(throws: expected) { try order.setValue(fromText: "0", forKeyPath: "quantity") }
    #expect(order.quantity == 1)
    #expect(counter.count == 0)
    #expect(expected.description == #"invalid value for "quantity": quantity must be at least 1"#)
    _ = token
  }

  @Test("setting through a nil relationship is an error naming it")
  func nilIntermediate() {
    let order = Order()
    let expected = KeyValueError.nilIntermediate(path: "customer.firstName", key: "customer")
    #expect(throws: expected) { try order.setValue("Ann", forKeyPath: "customer.firstName") }
    #expect(expected.description == #"cannot set "customer.firstName": "customer" is nil"#)
  }

  @Test("an index out of range is an error naming the index, the count and the path")
  func indexOutOfRange() {
    let order = Order()
    order.items = [Item("Book")]
    let expected = KeyValueError.indexOutOfRange(index: 5, count: 1, path: "items.5")
    #expect(throws: expected) { _ = try order.value(forKeyPath: "items.5.title") }
    #expect(expected.description == #"index 5 is out of range for "items.5" (1 element)"#)
  }

  @Test(
    "degenerate key paths are rejected",
    arguments: [
      ("", KeyValueError.malformedKeyPath(path: "", reason: "the key path is empty")),
      (".", .malformedKeyPath(path: ".", reason: "it has no key")),
      ("a..b", .malformedKeyPath(path: "a..b", reason: "it has an empty key between two dots")),
      ("@", .unknownOperator(operator: "@", path: "@")),
      (
        "@sum",
        .misplacedOperator(
          operator: "@sum", path: "@sum",
          reason: "a collection operator must follow a to-many relationship")
      ),
      ("items.@bogus.x", .unknownOperator(operator: "@bogus", path: "items.@bogus.x")),
      (
        "items.@sum",
        .misplacedOperator(
          operator: "@sum", path: "items.@sum",
          reason: "it needs a key path after it, such as @sum.weight")
      ),
      ("items.title", .throughToMany(key: "items", type: "Order")),
      ("quantity.x", .notARelationship(key: "quantity", type: "Order", role: .attribute)),
      ("items.-1", .throughToMany(key: "items", type: "Order")),
      ("qantity", .unknownKey(key: "qantity", type: "Order", path: "", suggestion: "quantity")),
      (
        "customer.adress.street",
        .unknownKey(key: "adress", type: "Person", path: "customer", suggestion: "address")
      ),
    ])
  func degeneratePaths(path: String, expected: KeyValueError) {
    let order = Order()
    #expect(throws: expected) { _ = try order.value(forKeyPath: path) }
    #expect(throws: expected) { try order.setValue(1, forKeyPath: path) }
  }

  @Test("an element, an operator or a path through a to-many cannot be set")
  func unsettableComponents() {
    let order = Order()
    order.items = [Item("Book")]
    #expect(
      throws: KeyValueError.malformedKeyPath(
        path: "items.0", reason: "only a key can be set, not an element or an operator")
    ) { try order.setValue(Item("Pen"), forKeyPath: "items.0") }
    #expect(
      throws: KeyValueError.malformedKeyPath(
        path: "items.@count", reason: "only a key can be set, not an element or an operator")
    ) { try order.setValue(1, forKeyPath: "items.@count") }
  }

  @Test("error messages for paths through to-many relationships say what to do")
  func throughToManyMessage() {
    #expect(
      KeyValueError.throughToMany(key: "items", type: "Order").description
        == #""items" of Order is a to-many relationship; continue with an index (items.0) or a collection operator (items.@count)"#
    )
  }
}

@Suite("Key path listing")
struct KeyPathListingTests {
  @Test("lists attributes through to-one relationships, settable ones or all")
  func listing() {
    #expect(
      Parcel.allObservableKeys.attributeKeyPaths(settableOnly: true) == [
        "recipient.firstName", "recipient.lastName", "recipient.age", "recipient.nickname",
        "recipient.manual", "recipient.address.street", "recipient.address.city", "recipient.found",
        "recipient.plain", "sender.firstName", "sender.lastName", "sender.age", "sender.nickname",
        "sender.manual", "sender.address.street", "sender.address.city", "sender.found",
        "sender.plain", "label",
      ])
    #expect(Person.allObservableKeys.attributeKeyPaths().contains("fullName"))
    #expect(!Person.allObservableKeys.attributeKeyPaths(settableOnly: true).contains("fullName"))
  }
}
