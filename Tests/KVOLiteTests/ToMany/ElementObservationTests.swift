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

  @Test(
    "an element's change is reported at its index after insertions and removals before it moved it"
  )
  func elementChangesAfterMoves() throws {
    let shipment = Shipment()
    let boxes = (0..<10).map { Box(Double($0)) }
    shipment.boxes = boxes
    let log = Log<String>()
    let token = try shipment.observe("boxes.weight", options: [.new]) {
      log.append(Self.record($0))
    }
    let proxy = shipment.mutableArrayValue(for: \.boxes)
    boxes[5].weight = 50  // Where it was placed.
    try proxy.insert(Box(-1), at: 0)  // (The first change after the start is read again.)
    boxes[5].weight = 51  // One place further.
    _ = try proxy.remove(at: 9)
    _ = try proxy.remove(at: 0)
    boxes[5].weight = 52  // Back, one place before: beside where it was last seen.
    for _ in 0..<3 { _ = try proxy.remove(at: 0) }
    boxes[5].weight = 53  // Three places before: found by a scan.
    boxes[5].weight = 54  // Where the scan found it.
    try proxy.insert(Box(-2), at: 0)
    boxes[5].weight = 55  // One place after where it was last seen.
    #expect(
      log.all.filter { $0.hasPrefix("replacement") } == [
        "replacement [5] - [50.0]", "replacement [6] - [51.0]", "replacement [5] - [52.0]",
        "replacement [2] - [53.0]", "replacement [2] - [54.0]", "replacement [3] - [55.0]",
      ])
    _ = token
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
        "insertion [1] - [2.0]",
        "replacement [1] [2.0] [20.0]",
        "removal [0] [1.0] -",
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

  @Test(
    "an element present twice is reported at both of its indexes, in one replacement per change"
  )
  func elementPresentTwice() throws {
    let shipment = Shipment()
    let (a, b) = (Box(1), Box(2))
    shipment.boxes = [a, b, a]
    let log = Log<String>()
    let token = try shipment.observe("boxes.weight", options: [.old, .new]) {
      log.append(Self.record($0))
    }
    a.weight = 5
    b.weight = 6
    try shipment.mutableArrayValue(for: \.boxes).remove(at: 0)
    a.weight = 7
    shipment.mutableArrayValue(for: \.boxes).append(a)
    a.weight = 8
    #expect(
      log.all == [
        "replacement [0,2] [1.0, 1.0] [5.0, 5.0]",
        "replacement [1] [2.0] [6.0]",
        "removal [0] [5.0] -",
        "replacement [1] [5.0] [7.0]",
        "insertion [2] - [7.0]",
        "replacement [1,2] [7.0, 7.0] [8.0, 8.0]",
      ])
    token.invalidate()
  }

  @Test(
    "an element that joins while a change of its key is in flight still gets that change (the value read when it joined was the old one)"
  )
  func elementJoiningDuringAChange() throws {
    let shipment = Shipment()
    let box = Box(1)
    let replay = ToManyReplay<Double>()
    let token = try shipment.observe("boxes.weight", options: [.initial, .old, .new]) {
      replay.apply($0)
    }
    // Inserted from inside the will-phase of a set of its weight: before the value is stored.
    var joined = false
    let prior = box.observe(\.weight, options: [.prior]) { _, change in
      guard change.isPrior, !joined else { return }
      joined = true
      shipment.mutableArrayValue(for: \.boxes).append(box)
    }
    box.weight = 5
    #expect(replay.problems == [])
    #expect(replay.elements == [5])
    _ = (token, prior)
  }

  @Test("an observer that invalidates its token inside a delivery gets nothing more")
  func invalidateInsideDelivery() throws {
    let shipment = Shipment()
    let box = Box(1)
    shipment.boxes = [box, box]
    var count = 0
    var token: ObservationToken?
    token = try shipment.observe("boxes.weight") { _ in
      count += 1
      token?.invalidate()
      box.weight += 1  // a change made inside the delivery, after the invalidation
    }
    box.weight = 2
    shipment.mutableArrayValue(for: \.boxes).append(Box(3))
    #expect(count == 1)
    #expect(box.observationRegistrar.triggerCount == 0)
    #expect(shipment.observationRegistrar.triggerCount == 0)
  }

  @Test(
    "under concurrent inserts, removes, replacements and sets of elements, the changes rebuild the model exactly"
  )
  func concurrentChangesRebuildTheModel() throws {
    for round in 0..<Self.rounds {
      let shipment = Shipment()
      let pool = (0..<6).map { Box(Double($0)) }
      shipment.boxes = [pool[0], pool[1], pool[0]]
      let replay = ToManyReplay<Double>()
      let token = try shipment.observe("boxes.weight", options: [.initial, .old, .new]) {
        replay.apply($0)
      }
      let late = Counter()
      let ended = Locked(false)
      let other = try shipment.observe("boxes.weight") { _ in
        if ended.withLock({ $0 }) { late.increment() }
      }
      race(workers: 4) { worker in
        let boxes = shipment.mutableArrayValue(for: \.boxes)
        for index in 0..<Self.operations {
          switch worker {
          case 0, 1: pool[(index + worker) % pool.count].weight = Double(index * 10 + worker)
          case 2:
            // Appends of pooled boxes put some boxes in the relationship twice.
            if index % 2 == 0 {
              boxes.append(pool[index % pool.count])
            } else {
              _ = try? boxes.remove(at: 0)
            }
          default:
            if index == Self.operations / 2 {
              other.invalidate()
              ended.withLock { $0 = true }
            }
            if index % 16 == 0 {
              shipment.boxes = Array(pool.shuffled().prefix(3))
            } else {
              try? boxes.replace(at: 0, with: pool[index % pool.count])
            }
          }
        }
      }
      #expect(replay.problems == [], "round \(round)")
      #expect(replay.elements == shipment.boxes.map(\.weight), "round \(round)")
      #expect(late.count == 0, "round \(round)")
      token.invalidate()
    }
  }

  static let rounds = 20
  static let operations = 300

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
