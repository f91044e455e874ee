/// The baseline: what a hand-written model does — an array of closures per property, called in
/// `didSet`. It is the practical floor: no locking, no key lookup, no boxing. Registration
/// returns a small token object that removes the closure when asked.
final class BaselineModel {
  private(set) var valueHandlers: [(id: Int, handler: (Int) -> Void)] = []
  private(set) var otherHandlers: [(id: Int, handler: (Int) -> Void)] = []
  private var nextID = 0

  var value = 0 {
    didSet { for entry in valueHandlers { entry.handler(value) } }
  }
  var other = 0 {
    didSet { for entry in otherHandlers { entry.handler(other) } }
  }

  func observeValue(_ handler: @escaping (Int) -> Void) -> BaselineToken {
    nextID += 1
    valueHandlers.append((nextID, handler))
    return BaselineToken(model: self, id: nextID)
  }

  func observeOther(_ handler: @escaping (Int) -> Void) -> BaselineToken {
    nextID += 1
    otherHandlers.append((nextID, handler))
    return BaselineToken(model: self, id: nextID)
  }

  func remove(_ id: Int) {
    if let index = valueHandlers.lastIndex(where: { $0.id == id }) {
      valueHandlers.remove(at: index)
    } else if let index = otherHandlers.lastIndex(where: { $0.id == id }) {
      otherHandlers.remove(at: index)
    }
  }
}

/// The baseline's cancellation handle.
final class BaselineToken {
  unowned let model: BaselineModel
  let id: Int
  init(model: BaselineModel, id: Int) {
    self.model = model
    self.id = id
  }
  func cancel() { model.remove(id) }
}

/// The baseline for a chain: the leaf's own closures (the floor: no chain bookkeeping at all).
final class BaselineAddress {
  var handlers: [(String) -> Void] = []
  var street = "" {
    didSet { for handler in handlers { handler(street) } }
  }
}

/// The baseline for to-many and dependent keys: closures called in `didSet`, with the whole
/// array (the floor: no indexes computed) or the recomputed derived value.
final class BaselineCart {
  var contentsHandlers: [([Int]) -> Void] = []
  var fullNameHandlers: [(String) -> Void] = []
  var contents: [Int] = [] {
    didSet { for handler in contentsHandlers { handler(contents) } }
  }
  var firstName = "" {
    didSet { for handler in fullNameHandlers { handler(fullName) } }
  }
  var lastName = "Smith"
  var fullName: String { firstName + " " + lastName }
}
