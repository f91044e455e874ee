import KVOLiteBridge
import Observation

// The peers of SPEC §8: Swift Observation, a naive registry, and KVOLite's own Combine-style
// `CurrentValueSubject` and `@Published`.

/// Swift Observation's contender: an `@Observable` model.
@Observable final class ObservationModel {
  // Pooled from the start (`onChange` reads the value being replaced), and not the first value set: Observation skips sets of an equal value.
  var value = Pool.value(Pool.size - 1)
  var other = Pool.value(Pool.size - 1)
}

@Observable final class ObservationAddress {
  var street = Pool.value(Pool.size - 1)
}

@Observable final class ObservationPerson {
  var postalAddress = ObservationAddress()
}

@Observable final class ObservationPackage {
  var recipient = ObservationPerson()
}

@Observable final class ObservationCart {
  var contents: [String] = []
  var firstName = ""
  var lastName = "Smith"
  var fullName: String { firstName + " " + lastName }
}

/// A continuous observer built on `withObservationTracking`, which is one-shot: it re-arms
/// itself from `onChange` after every change, as continuous observation requires. (`onChange`
/// runs before the change, so the value it reads is the one being replaced.)
final class Rearming: @unchecked Sendable {
  private let read: () -> Void

  init(read: @escaping () -> Void) {
    self.read = read
    arm()
  }

  private func arm() {
    withObservationTracking(read) { [weak self] in self?.arm() }
  }
}

/// The "naive registry" of many blog posts: one dictionary from `PartialKeyPath` to handlers,
/// consulted on every set with the property's key path, values passed as `Any`.
final class NaiveModel {
  private var handlers: [PartialKeyPath<NaiveModel>: [(id: Int, handler: (Any) -> Bool)]] = [:]
  private var nextID = 0

  var value = "" { didSet { notify(\NaiveModel.value, value) } }
  var other = "" { didSet { notify(\NaiveModel.other, other) } }
  var street = "" { didSet { notify(\NaiveModel.street, street) } }

  @discardableResult
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

/// KVOLite's `@Published` as a Combine-style peer.
final class PublishedModel: ObservableObject {
  @Published var value = ""
  @Published var other = ""
}

/// KVOLite's `CurrentValueSubject` as a Combine-style peer: one subject per property.
final class SubjectModel {
  let value = CurrentValueSubject<String, Never>("")
  let other = CurrentValueSubject<String, Never>("")
}
