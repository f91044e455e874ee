import Foundation
import KVOLite
import KVOLiteTestSupport
import Testing

@Suite("To-many relationships")
struct KeyValueArrayTests {
  /// "insertion [1] new [Mug]", "removal [0] old [Book]": a change in one line.
  static func line(_ change: KeyValueChange<[Item]>) -> String {
    var parts = [change.isPrior ? "prior \(change.kind)" : "\(change.kind)"]
    if let indexes = change.indexes { parts.append("\(Array(indexes))") }
    if let old = change.oldValue { parts.append("old \(old)") }
    if let new = change.newValue { parts.append("new \(new)") }
    return parts.joined(separator: " ")
  }

  @Test("every proxy mutation notifies its kind, exact indexes and elements")
  func mutations() throws {
    let order = Order()
    let log = Log<String>()
    let token = order.observe(\.items, options: [.old, .new]) { _, change in
      log.append(Self.line(change))
    }
    let items = order.mutableArrayValue(for: \.items)
    items.append(Item("Book"))
    items.append(contentsOf: [Item("Mug"), Item("Pen")])
    try items.insert(Item("Lamp"), at: 1)
    try items.insert([Item("A"), Item("B")], at: IndexSet([0, 5]))
    try items.remove(at: 0)
    try items.remove(at: IndexSet([1, 3]))
    try items.replace(at: 0, with: Item("Cup"))
    try items.replace(at: IndexSet([0, 1]), with: [Item("X"), Item("Y")])
    items.removeAll()
    #expect(
      log.all == [
        "insertion [0] new [Book]",
        "insertion [1, 2] new [Mug, Pen]",
        "insertion [1] new [Lamp]",
        "insertion [0, 5] new [A, B]",
        "removal [0] old [A]",
        "removal [1, 3] old [Lamp, Pen]",
        "replacement [0] old [Book] new [Cup]",
        "replacement [0, 1] old [Cup, Mug] new [X, Y]",
        "removal [0, 1, 2] old [X, Y, B]",
      ])
    #expect(order.items.isEmpty)
    _ = token
  }

  @Test("prior notifications of to-many changes carry indexes and old elements, never new ones")
  func priorToMany() throws {
    let order = Order()
    order.items = [Item("Book")]
    let log = Log<String>()
    let token = order.observe(\.items, options: [.old, .new, .prior]) { _, change in
      log.append(Self.line(change))
    }
    let items = order.mutableArrayValue(for: \.items)
    items.append(Item("Mug"))
    try items.remove(at: 0)
    #expect(
      log.all == [
        "prior insertion [1]", "insertion [1] new [Mug]",
        "prior removal [0] old [Book]", "removal [0] old [Book]",
      ])
    _ = token
  }

  @Test("assigning the whole array is a setting")
  func wholeArrayIsSetting() throws {
    let order = Order()
    let log = Log<String>()
    let token = order.observe(\.items, options: [.old, .new]) { _, change in
      log.append(Self.line(change))
    }
    order.items = [Item("Book")]
    #expect(log.all == ["setting old [] new [Book]"])
    _ = token
  }

  @Test("string and chain observers of the key itself get the to-many kind too")
  func stringObserversGetToMany() throws {
    let order = Order()
    let log = Log<String>()
    let token = try order.observe("items", options: [.new]) { change in
      log.append(
        "\(change.kind) \(Array(change.indexes ?? [])) \(change.newValue.map { "\($0!)" } ?? "-")")
    }
    order.mutableArrayValue(for: \.items).append(Item("Book"))
    #expect(log.all == ["insertion [0] [Book]"])
    _ = token
  }

  @Test(
    "observers of operators and derived keys over the relationship get settings of whole values")
  func nonExactObserversGetSettings() throws {
    let order = Order()
    let log = Log<String>()
    let count = try order.observe("items.@count", options: [.old, .new]) { change in
      log.append("@count \(change.kind) \(change.oldValue!!) -> \(change.newValue!!)")
    }
    let derived = order.observe(\.itemCount, options: [.old, .new]) { _, change in
      log.append("itemCount \(change.kind) \(change.oldValue!) -> \(change.newValue!)")
    }
    order.mutableArrayValue(for: \.items).append(Item("Book"))
    #expect(log.all == ["@count setting 0 -> 1", "itemCount setting 0 -> 1"])
    _ = (count, derived)
  }

  @Test("an observed append racing removals is never dropped: it appends at the end as it is then")
  func appendRacingRemovals() throws {
    let order = Order()
    let insertions = Counter()
    let removals = Counter()
    let token = try order.observe("items", options: [.new]) { change in
      switch change.kind {
      case .insertion: insertions.increment()
      case .removal: removals.increment()
      default: break
      }
    }
    let rounds = 5_000
    race(workers: 2) { worker in
      let items = order.mutableArrayValue(for: \.items)
      for round in 0..<rounds {
        if worker == 0 {
          items.append(Item("item \(round)"))
        } else {
          _ = try? items.remove(at: 0)
        }
      }
    }
    #expect(insertions.count == rounds)
    #expect(insertions.count - removals.count == order.items.count)
    _ = token
  }

  @Test("an out-of-range mutation throws, changes nothing and notifies nobody")
  func outOfRange() throws {
    let order = Order()
    order.items = [Item("Book")]
    let counter = Counter()
    let token = order.observe(\.items, options: [.prior]) { _, _ in counter.increment() }
    let items = order.mutableArrayValue(for: \.items)
    #expect(throws: KeyValueError.indexOutOfRange(index: 2, count: 1, path: "items")) {
      try items.insert(Item("Mug"), at: 2)
    }
    #expect(throws: KeyValueError.indexOutOfRange(index: 1, count: 1, path: "items")) {
      try items.remove(at: 1)
    }
    #expect(throws: KeyValueError.indexOutOfRange(index: 3, count: 1, path: "items")) {
      try items.replace(at: IndexSet([0, 3]), with: [Item("A"), Item("B")])
    }
    #expect(throws: KeyValueError.countMismatch(path: "items", indexes: 2, elements: 1)) {
      try items.insert([Item("A")], at: IndexSet([0, 1]))
    }
    #expect(order.items.map(\.title) == ["Book"])
    #expect(counter.count == 0)
    _ = token
  }

  @Test("to-many relationships of values work the same way")
  func valueElements() throws {
    let order = Order()
    let log = Log<KeyValueChange<[String]>>()
    let token = order.observe(\.tags, options: [.old, .new]) { _, change in log.append(change) }
    let tags = order.mutableArrayValue(for: \.tags)
    tags.append("fragile")
    try tags.replace(at: 0, with: "heavy")
    #expect(
      log.all == [
        KeyValueChange(kind: .insertion, newValue: ["fragile"], indexes: [0]),
        KeyValueChange(
          kind: .replacement, oldValue: ["fragile"], newValue: ["heavy"], indexes: [0]),
      ])
    #expect(tags.elements == ["heavy"])
    #expect(tags.count == 1)
    _ = token
  }

  @Test("unobserved mutations just change the array")
  func unobserved() throws {
    let order = Order()
    let items = order.mutableArrayValue(for: \.items)
    items.append(Item("Book"))
    try items.insert(Item("Mug"), at: 0)
    #expect(try items.remove(at: 1).title == "Book")
    #expect(order.items.map(\.title) == ["Mug"])
  }

  @Test(
    "a proxy for what is not an @Observed to-many relationship stops the program, naming it and the fix"
  )
  func proxyErrors() async throws {
    let result = try #require(
      await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        _ = Order().mutableArrayValue(for: \.undeclaredTags)
      })
    let message = String(decoding: result.standardErrorContent, as: UTF8.self)
    #expect(
      message.contains(
        #"KVOLite: cannot mutate the key path from Order to Array<String>: it is neither an @Observed property nor a key declared in Order.observableKeys (mark a stored property @Observed; declare a computed one as a derived key, with the key paths it reads: .derived("name", \.name, affectedBy: ["…"]))"#
      ))
  }
}

extension KeyValueArrayTests {
  @Test("a proxy by name for an attribute is refused with an error that names what the key is")
  func proxyByNameForAnAttribute() {
    let error = #expect(throws: KeyValueError.self) {
      try Order().mutableArrayValue(forKey: "note")
    }
    #expect(error?.description == #""note" expects an array, not an attribute"#)
  }
}

extension Order {
  /// Not declared: a proxy for it must be refused.
  var undeclaredTags: [String] {
    get { [] }
    set {}
  }
}

@Suite("To-many mutations by key path")
struct ErasedToManyTests {
  @Test("inserts, removes and replaces with erased elements, notifying like the proxy")
  func erased() throws {
    let order = Order()
    let log = Log<String>()
    let token = order.observe(\.items, options: [.old, .new]) { _, change in
      log.append(KeyValueArrayTests.line(change))
    }
    try order.mutateToMany(.insertion, forKeyPath: "items", at: [0], elements: [Item("Book")])
    try order.mutateToMany(.replacement, forKeyPath: "items", at: [0], elements: [Item("Mug")])
    try order.mutateToMany(.removal, forKeyPath: "items", at: [0])
    #expect(
      log.all == [
        "insertion [0] new [Book]", "replacement [0] old [Book] new [Mug]", "removal [0] old [Mug]",
      ])
    _ = token
  }

  @Test("a wrong element type, a non-to-many key or a bad index changes nothing")
  func errors() {
    let order = Order()
    #expect(throws: KeyValueError.typeMismatch(path: "items", expected: "Item", actual: "String")) {
      try order.mutateToMany(.insertion, forKeyPath: "items", at: [0], elements: ["Book"])
    }
    #expect(
      throws: KeyValueError.typeMismatch(
        path: "quantity", expected: "an array and a to-many change",
        actual: "an attribute")
    ) { try order.mutateToMany(.removal, forKeyPath: "quantity", at: [0]) }
    #expect(throws: KeyValueError.indexOutOfRange(index: 0, count: 0, path: "items")) {
      try order.mutateToMany(.removal, forKeyPath: "items", at: [0])
    }
    #expect(order.items.isEmpty)
  }
}
