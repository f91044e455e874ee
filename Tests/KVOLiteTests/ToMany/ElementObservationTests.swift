import Foundation
import KVOLite
import KVOLiteTestSupport
import Testing

/// An element of a to-many relationship.
private final class Box: KeyValueObservable, @unchecked Sendable {
  let observationRegistrar = ObservationRegistrar()
  static let observableKeys: ObservableKeys<Box> = [
    .attribute("weight", \.weight), .toOne("label", \.label),
  ]
  @Observed var weight: Double
  @Observed var label = Label()
  init(_ weight: Double) { self.weight = weight }
}

/// A label of a box.
private final class Label: KeyValueObservable, @unchecked Sendable {
  let observationRegistrar = ObservationRegistrar()
  static let observableKeys: ObservableKeys<Label> = [.attribute("text", \.text)]
  @Observed var text = ""
}

/// A shipment of boxes.
private final class Shipment: KeyValueObservable, @unchecked Sendable {
  let observationRegistrar = ObservationRegistrar()
  static let observableKeys: ObservableKeys<Shipment> = [.toMany("boxes", \.boxes)]
  @Observed var boxes: [Box] = []
}

@Suite("Observing a key of every element of a to-many relationship")
struct ElementObservationTests {
  /// Records each change as text: kind, indexes, old and new values.
  private static func record(_ change: KeyValueChange<Any?>) -> String {
    func text(_ value: Any??) -> String {
      guard let value = value, let values = value as? [Any?] else { return "-" }
      return "[" + values.map { $0.map { "\($0)" } ?? "nil" }.joined(separator: ", ") + "]"
    }
    let indexes = change.indexes.map { Array($0).map(String.init).joined(separator: ",") } ?? ""
    return
      "\(change.isPrior ? "prior " : "")\(change.kind) [\(indexes)] \(text(change.oldValue)) \(text(change.newValue))"
  }

  @Test("a change of any element's key is a replacement at its index, with its old and new value")
  func elementChanges() throws {
    let shipment = Shipment()
    let boxes = [Box(1), Box(2)]
    shipment.boxes = boxes
    let log = Log<String>()
    let token = try shipment.observe("boxes.weight", options: [.old, .new]) {
      log.append(Self.record($0))
    }
    boxes[1].weight = 5
    boxes[0].weight = 3
    #expect(log.all == ["replacement [1] [2.0] [5.0]", "replacement [0] [1.0] [3.0]"])
    token.invalidate()
    boxes[0].weight = 4
    #expect(log.all.count == 2)
  }

  @Test(
    "inserted elements are observed, removed ones are not; each relationship change is delivered with the elements' values"
  )
  func relationshipChanges() throws {
    let shipment = Shipment()
    let first = Box(1)
    shipment.boxes = [first]
    let log = Log<String>()
    let token = try shipment.observe("boxes.weight", options: [.initial, .old, .new]) {
      log.append(Self.record($0))
    }
    let second = Box(2)
    shipment.mutableArrayValue(for: \.boxes).append(second)
    second.weight = 20
    try shipment.mutableArrayValue(for: \.boxes).remove(at: 0)
    first.weight = 10  // removed: nothing
    second.weight = 21  // now at index 0
    let third = Box(3)
    shipment.boxes = [third]
    second.weight = 22  // gone: nothing
    third.weight = 30
    #expect(
      log.all == [
        "setting [] - [1.0]",
        "insertion [1] [] [2.0]",
        "replacement [1] [2.0] [20.0]",
        "removal [0] [1.0] []",
        "replacement [0] [20.0] [21.0]",
        "setting [] [21.0] [3.0]",
        "replacement [0] [3.0] [30.0]",
      ])
    token.invalidate()
  }

  @Test("the key may be a chain; a mistake in it throws at registration, with or without elements")
  func chainsAndErrors() throws {
    let shipment = Shipment()
    let box = Box(1)
    shipment.boxes = [box]
    let log = Log<String>()
    let token = try shipment.observe("boxes.label.text", options: [.new]) {
      log.append(Self.record($0))
    }
    box.label.text = "fragile"
    box.label = Label()
    #expect(log.all == ["replacement [0] - [fragile]", "replacement [0] - []"])
    token.invalidate()
    #expect(
      throws: KeyValueError.unknownKey(key: "wieght", type: "Box", path: "", suggestion: "weight")
    ) { try Shipment().observe("boxes.wieght") { _ in } }
  }

  @Test("releasing the observed object ends every element observation, as it ends its own")
  func lifetimes() throws {
    let box = Box(1)
    var shipment: Shipment? = Shipment()
    shipment?.boxes = [box]
    var count = 0
    let token = try shipment!.observe("boxes.weight", options: [.new]) { _ in count += 1 }
    shipment = nil
    box.weight = 2  // The observed object is gone: its observations end, the elements' too.
    #expect(count == 0)
    token.invalidate()
    box.weight = 3
    #expect(count == 0)
  }
}
