/// The fair floor of SPEC §8: the cheapest correct code a person would write for the same job.
///
/// A property is a heap-allocated `String`; its `didSet` reads the value once and calls an
/// array of closures. Registration returns a token that removes the closure; the token refers
/// to the model weakly (as KVOLite's tokens do not keep the observed object alive).
final class FloorModel {
  private var valueHandlers: [(String) -> Void] = []
  private var valueIDs: [Int] = []
  private var otherHandlers: [(String) -> Void] = []
  private var otherIDs: [Int] = []
  private var nextID = 0

  var value = "" {
    didSet {
      let value = self.value
      for handler in valueHandlers { handler(value) }
    }
  }

  var other = "" {
    didSet {
      let other = self.other
      for handler in otherHandlers { handler(other) }
    }
  }

  func observeValue(_ handler: @escaping (String) -> Void) -> FloorToken {
    nextID += 1
    valueHandlers.append(handler)
    valueIDs.append(nextID)
    return FloorToken(model: self, id: nextID)
  }

  func observeOther(_ handler: @escaping (String) -> Void) -> FloorToken {
    nextID += 1
    otherHandlers.append(handler)
    otherIDs.append(nextID)
    return FloorToken(model: self, id: nextID)
  }

  fileprivate func remove(_ id: Int) {
    if let index = valueIDs.lastIndex(of: id) {
      valueIDs.remove(at: index)
      valueHandlers.remove(at: index)
    } else if let index = otherIDs.lastIndex(of: id) {
      otherIDs.remove(at: index)
      otherHandlers.remove(at: index)
    }
  }
}

/// The floor's cancellation handle.
final class FloorToken {
  private weak var model: FloorModel?
  private let id: Int

  init(model: FloorModel, id: Int) {
    self.model = model
    self.id = id
  }

  func cancel() { model?.remove(id) }
}

/// The `Int` variant of the floor, shown beside it for reference: no reference counting at all.
final class FloorIntModel {
  var handlers: [(Int) -> Void] = []
  var value = 0 {
    didSet {
      let value = self.value
      for handler in handlers { handler(value) }
    }
  }
}

/// The floor for a chain's leaf: the leaf's own closures, with no chain bookkeeping.
final class FloorAddress {
  var handlers: [(String) -> Void] = []
  var street = "" {
    didSet {
      let street = self.street
      for handler in handlers { handler(street) }
    }
  }
}

/// The floor for to-many and derived keys: closures called in `didSet` with the whole array
/// (no indexes computed) or the recomputed derived value.
final class FloorCart {
  var contentsHandlers: [([String]) -> Void] = []
  var fullNameHandlers: [(String) -> Void] = []
  var contents: [String] = [] {
    didSet {
      let contents = self.contents
      for handler in contentsHandlers { handler(contents) }
    }
  }
  var firstName = "" {
    didSet {
      let fullName = self.fullName
      for handler in fullNameHandlers { handler(fullName) }
    }
  }
  var lastName = "Smith"
  var fullName: String { firstName + " " + lastName }
}

/// One side of the floor's two-way mirror: a name whose `didSet` calls one closure.
final class FloorName {
  var onChange: ((String) -> Void)?
  var firstName = "" { didSet { onChange?(firstName) } }
}

/// A package whose recipient is a ``FloorName``: the floor of the two-pipe mirror, whose write
/// back to the model goes through the key path `\.recipient.firstName` as `assign(to:on:)`'s
/// does.
final class FloorPackage {
  let recipient = FloorName()
}
