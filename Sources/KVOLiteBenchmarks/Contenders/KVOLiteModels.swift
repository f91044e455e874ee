import KVOLite

/// KVOLite's contender: two observable properties.
final class KVOLiteModel: KeyValueObservable, @unchecked Sendable {
  let observationRegistrar = ObservationRegistrar()
  static let observableKeys: ObservableKeys<KVOLiteModel> = [
    .attribute("value", \.value),
    .attribute("other", \.other),
  ]
  @Observed var value = ""
  @Observed var other = ""
}

/// The chain `recipient.postalAddress.street` for workload E.
final class KVOLiteAddress: KeyValueObservable, @unchecked Sendable {
  let observationRegistrar = ObservationRegistrar()
  static let observableKeys: ObservableKeys<KVOLiteAddress> = [.attribute("street", \.street)]
  @Observed var street = ""
}

final class KVOLitePerson: KeyValueObservable, @unchecked Sendable {
  let observationRegistrar = ObservationRegistrar()
  static let observableKeys: ObservableKeys<KVOLitePerson> = [
    .toOne("postalAddress", \.postalAddress),
    .attribute("firstName", \.firstName),
  ]
  @Observed var postalAddress = KVOLiteAddress()
  @Observed var firstName = ""
}

final class KVOLitePackage: KeyValueObservable, @unchecked Sendable {
  let observationRegistrar = ObservationRegistrar()
  static let observableKeys: ObservableKeys<KVOLitePackage> = [.toOne("recipient", \.recipient)]
  @Observed var recipient = KVOLitePerson()
}

/// To-many and dependent-key workloads.
final class KVOLiteCart: KeyValueObservable, @unchecked Sendable {
  let observationRegistrar = ObservationRegistrar()
  static let observableKeys: ObservableKeys<KVOLiteCart> = [
    .toMany("contents", \.contents),
    .attribute("firstName", \.firstName),
    .attribute("lastName", \.lastName),
    .derived("fullName", \.fullName, affectedBy: ["firstName", "lastName"]),
  ]
  @Observed var contents: [String] = []
  @Observed var firstName = ""
  @Observed var lastName = "Smith"
  var fullName: String { firstName + " " + lastName }
}

/// ``KVOLiteCart``'s derived key with nothing declared: its inputs are found by reading it
/// (row DK's "KVOLite found").
final class KVOLiteFoundCart: KeyValueObservable, @unchecked Sendable {
  let observationRegistrar = ObservationRegistrar()
  @Observed var firstName = ""
  @Observed var lastName = "Smith"
  var fullName: String { firstName + " " + lastName }
}

/// An element of workload L's relationship: one observable key.
final class KVOLiteItem: KeyValueObservable, @unchecked Sendable {
  let observationRegistrar = ObservationRegistrar()
  @Observed var weight = 0.0
}

/// Workload L's model: a to-many relationship whose elements' key is observed.
final class KVOLiteShelf: KeyValueObservable, @unchecked Sendable {
  let observationRegistrar = ObservationRegistrar()
  @Observed var items: [KVOLiteItem] = []
}
