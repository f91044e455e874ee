import KVOLiteBridge
import Synchronization

// The models of the key-value coding, classic observer and several-key-path scenarios,
// declared as users now write them: a registrar and `@Observed` properties, nothing listed.

/// The root: an attribute of each kind key-value coding converts (text, a number), a to-one
/// relationship and a to-many relationship of observable elements.
final class Depot: KeyValueObservable, @unchecked Sendable {
  let observationRegistrar = ObservationRegistrar()
  @Observed var label = ""
  @Observed var count = 0
  @Observed var keeper = Keeper()
  @Observed var cartons: [Carton] = []

  init() { liveObjects.add(1, ordering: .relaxed) }
  deinit { liveObjects.subtract(1, ordering: .relaxed) }
}

/// The depot's to-one relationship, replaced as a whole while its name is set.
final class Keeper: KeyValueObservable, @unchecked Sendable {
  let observationRegistrar = ObservationRegistrar()
  @Observed var name = ""

  init() { liveObjects.add(1, ordering: .relaxed) }
  deinit { liveObjects.subtract(1, ordering: .relaxed) }
}

/// An element of the depot's cartons: reached by index (`cartons.2.weight`) and by collection
/// operators (`cartons.@sum.weight`).
final class Carton: KeyValueObservable, @unchecked Sendable {
  let observationRegistrar = ObservationRegistrar()
  @Observed var weight: Int
  @Observed var title: String

  init(weight: Int = 0, title: String = "") {
    self.weight = weight
    self.title = title
    liveObjects.add(1, ordering: .relaxed)
  }
  deinit { liveObjects.subtract(1, ordering: .relaxed) }
}

/// A model notified by hand: `level` and the to-many `readings` are declared with automatic
/// notification off, so that only `willChangeValue`/`didChangeValue` pairs notify them.
final class Gauge: KeyValueObservable, @unchecked Sendable {
  let observationRegistrar = ObservationRegistrar()
  static let observableKeys: ObservableKeys<Gauge> = [
    .attribute("level", \.level, notifiesAutomatically: false),
    .toMany("readings", \.readings, notifiesAutomatically: false),
  ]
  @Observed var level = ""
  @Observed var readings: [String]

  init(readings: Int) {
    self.readings = Array(repeating: "", count: readings)
    liveObjects.add(1, ordering: .relaxed)
  }
  deinit { liveObjects.subtract(1, ordering: .relaxed) }
}
