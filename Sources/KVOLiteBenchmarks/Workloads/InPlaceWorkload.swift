import KVOLite
import Observation

/// Workload U: an array grown in place, `shelf.items.append(x)`, with nothing observing it —
/// what every Swift user writes. Every 1,000 appends the array is emptied in place (keeping its
/// capacity), so that batches do not grow without bound. The floor is a plain class's property.
enum InPlaceWorkload {
  static var append: Workload {
    Workload(
      name: "U  append in place, unobserved", target: .none,
      contenders: [
        Contender(name: "floor") {
          let shelf = opaque(PlainShelf())
          return Case(effectPerOperation: 0) { n in
            for i in 0..<n {
              shelf.items.append(Pool.value(i))
              if shelf.items.count == 1_000 { shelf.items.removeAll(keepingCapacity: true) }
            }
          }
        },
        Contender(name: "KVOLite") {
          let shelf = opaque(ObservedShelf())
          return Case(effectPerOperation: 0) { n in
            for i in 0..<n {
              shelf.items.append(Pool.value(i))
              if shelf.items.count == 1_000 { shelf.items.removeAll(keepingCapacity: true) }
            }
          }
        },
        Contender(name: "Observation") {
          let shelf = opaque(ObservationShelf())
          return Case(effectPerOperation: 0) { n in
            for i in 0..<n {
              shelf.items.append(Pool.value(i))
              if shelf.items.count == 1_000 { shelf.items.removeAll(keepingCapacity: true) }
            }
          }
        },
      ])
  }
}

/// U's floor: a plain class.
final class PlainShelf {
  var items: [String] = []
}

/// U for KVOLite: an `@Observed` array.
final class ObservedShelf: KeyValueObservable {
  let observationRegistrar = ObservationRegistrar()
  @Observed var items: [String] = []
}

/// U for Swift Observation: an `@Observable` class.
@Observable final class ObservationShelf {
  var items: [String] = []
}
