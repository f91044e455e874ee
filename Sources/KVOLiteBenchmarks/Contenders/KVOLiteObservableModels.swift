import KVOLite
import Observation

// KVOLite's contenders that Swift Observation also sees: the same models as in
// KVOLiteModels.swift, conforming to `Observable` as well (rows "KVOLite Observable"), so that
// a run gives what the conformance costs a get and a set when nothing tracks the model.

/// ``KVOLiteModel``, `Observable`.
final class KVOLiteObservableModel: KeyValueObservable, Observable, @unchecked Sendable {
  let observationRegistrar = ObservationRegistrar()
  @Observed var value = ""
  @Observed var other = ""
}

/// ``KVOLiteCart``'s derived key, `Observable`.
final class KVOLiteObservableCart: KeyValueObservable, Observable, @unchecked Sendable {
  let observationRegistrar = ObservationRegistrar()
  static let observableKeys: ObservableKeys<KVOLiteObservableCart> = [
    .derived("fullName", \.fullName, affectedBy: ["firstName", "lastName"])
  ]
  @Observed var firstName = ""
  @Observed var lastName = "Smith"
  var fullName: String { firstName + " " + lastName }
}
