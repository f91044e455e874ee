/// The "naive registry" of many blog posts: one dictionary from `PartialKeyPath` to handlers,
/// consulted on every set with the property's key path, values passed as `Any`.
final class NaiveModel {
  private var handlers: [PartialKeyPath<NaiveModel>: [(id: Int, handler: (Any) -> Bool)]] = [:]
  private var nextID = 0

  var value = 0 { didSet { notify(\NaiveModel.value, value) } }
  var other = 0 { didSet { notify(\NaiveModel.other, other) } }

  func observe(_ keyPath: PartialKeyPath<NaiveModel>, _ handler: @escaping (Any) -> Bool) -> Int {
    nextID += 1
    handlers[keyPath, default: []].append((nextID, handler))
    return nextID
  }

  func remove(_ keyPath: PartialKeyPath<NaiveModel>, id: Int) {
    handlers[keyPath]?.removeAll { $0.id == id }
  }

  private func notify(_ keyPath: PartialKeyPath<NaiveModel>, _ value: Any) {
    guard let list = handlers[keyPath] else { return }
    for entry in list { _ = entry.handler(value) }
  }
}

/// The naive registry on a chain's leaf (it has no notion of chains).
final class NaiveAddress {
  private var handlers: [PartialKeyPath<NaiveAddress>: [(Any) -> Bool]] = [:]
  var street = "" { didSet { notify(\NaiveAddress.street, street) } }

  func observe(_ keyPath: PartialKeyPath<NaiveAddress>, _ handler: @escaping (Any) -> Bool) {
    handlers[keyPath, default: []].append(handler)
  }

  private func notify(_ keyPath: PartialKeyPath<NaiveAddress>, _ value: Any) {
    guard let list = handlers[keyPath] else { return }
    for handler in list { _ = handler(value) }
  }
}
