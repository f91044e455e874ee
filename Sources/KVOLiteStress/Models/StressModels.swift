import KVOLiteBridge
import KVOLiteTestSupport
import Synchronization

/// Live instances of the stress models, so that a scenario can tell whether anything leaked.
let liveObjects = Atomic<Int>(0)

/// A reference value: stored in attributes so that sets retain and release objects.
final class Tag: Sendable {
  let writer: Int
  let index: Int

  init(writer: Int, index: Int) {
    self.writer = writer
    self.index = index
    liveObjects.add(1, ordering: .relaxed)
  }

  deinit { liveObjects.subtract(1, ordering: .relaxed) }
}

/// A model with one attribute of every kind of value: a heap string, an array, a class
/// reference, an optional, and a to-many relationship.
final class Contact: KeyValueObservable, @unchecked Sendable {
  let observationRegistrar = ObservationRegistrar()
  static let observableKeys: ObservableKeys<Contact> = [
    .attribute("name", \.name),
    .attribute("scores", \.scores),
    .attribute("tag", \.tag),
    .attribute("nickname", \.nickname),
    .toMany("notes", \.notes),
    .toOne("address", \.address),
    .derived("label", \.label, affectedBy: ["name", "address.street"]),
  ]
  @Observed var name = ""
  @Observed var scores: [Int] = []
  @Observed var tag = Tag(writer: -1, index: -1)
  @Observed var nickname: String? = nil
  @Observed var notes: [String] = []
  @Observed var address = Address(street: "")
  var label: String { name + " at " + address.street }

  init() { liveObjects.add(1, ordering: .relaxed) }
  deinit { liveObjects.subtract(1, ordering: .relaxed) }
}

/// The middle and end of the chain `contact.address.street`.
final class Address: KeyValueObservable, @unchecked Sendable {
  let observationRegistrar = ObservationRegistrar()
  static let observableKeys: ObservableKeys<Address> = [.attribute("street", \.street)]
  @Observed var street: String

  init(street: String) {
    self.street = street
    liveObjects.add(1, ordering: .relaxed)
  }
  deinit { liveObjects.subtract(1, ordering: .relaxed) }
}

/// The root of the chain `book.contact.address.street`.
final class AddressBook: KeyValueObservable, @unchecked Sendable {
  let observationRegistrar = ObservationRegistrar()
  static let observableKeys: ObservableKeys<AddressBook> = [.toOne("contact", \.contact)]
  @Observed var contact = Contact()

  init() { liveObjects.add(1, ordering: .relaxed) }
  deinit { liveObjects.subtract(1, ordering: .relaxed) }
}

/// Values that say who wrote them: `"w<writer>:<index>:"` padded past the small-string size,
/// so that every set allocates, retains and releases.
enum Stamp {
  static func string(writer: Int, index: Int) -> String {
    "w\(writer):\(index):" + String(repeating: "x", count: 16 + index % 32)
  }

  /// The writer and index of a stamped string, or `nil` if it is not well-formed (a torn or
  /// freed value would not be).
  static func parse(_ value: String) -> (writer: Int, index: Int)? {
    let parts = value.utf8.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false)
    guard parts.count == 3, parts[0].first == UInt8(ascii: "w"),
      let writer = Int(String(decoding: parts[0].dropFirst(), as: UTF8.self)),
      let index = Int(String(decoding: parts[1], as: UTF8.self)),
      parts[2].count == 16 + index % 32, parts[2].allSatisfy({ $0 == UInt8(ascii: "x") })
    else { return nil }
    return (writer, index)
  }

  /// An array that says who wrote it: `[writer, index, index, …]`, `2 + index % 8` long.
  static func array(writer: Int, index: Int) -> [Int] {
    [writer] + Array(repeating: index, count: 1 + index % 8)
  }

  static func parse(_ value: [Int]) -> (writer: Int, index: Int)? {
    guard value.count >= 2, value.count == 2 + value[1] % 8,
      value.dropFirst().allSatisfy({ $0 == value[1] })
    else { return nil }
    return (value[0], value[1])
  }
}
