import KVOLiteBridge

/// Classes that no one has used yet, made at run time, so that a scenario can race the first
/// use of a class (when its keys are found) as often as it likes: each number names another
/// specialization of the generic classes below (`Vessel<Bit1<Bit0<Bit1<End>>>>` for 5).
enum FreshClasses {
  /// Calls `visitor` with the base class and the subclass numbered `number`.
  static func visit<Visitor: FreshClassVisitor>(_ number: Int, _ visitor: Visitor) {
    func build<Tag>(_ rest: Int, _: Tag.Type) {
      guard rest > 0 else { return visitor.visit(Vessel<Tag>.self, Barge<Tag>.self) }
      rest % 2 == 0 ? build(rest / 2, Bit0<Tag>.self) : build(rest / 2, Bit1<Tag>.self)
    }
    // A leading one keeps numbers with the same bits but different lengths apart.
    build(number * 2 + 1, End.self)
  }
}

/// What a scenario does with a pair of fresh classes, whose types it then knows.
protocol FreshClassVisitor {
  func visit<Tag>(_ base: Vessel<Tag>.Type, _ subclass: Barge<Tag>.Type)
}

enum End {}
enum Bit0<Rest> {}
enum Bit1<Rest> {}

/// A parcel: an element of a vessel's to-many cargo.
final class Parcel: KeyValueObservable, @unchecked Sendable {
  let observationRegistrar = ObservationRegistrar()
  @Observed var weight = 0
}

/// The base class: found keys of every role, and a derived key.
class Vessel<Tag>: KeyValueObservable, @unchecked Sendable {
  let observationRegistrar = ObservationRegistrar()
  class var observableKeys: ObservableKeys<Vessel> {
    [.derived("double", \.double, affectedBy: ["load"])]
  }
  @Observed var load = 0
  @Observed var cargo: [Parcel] = []
  @Observed var escort: Parcel? = nil
  var double: Int { load * 2 }
  required init() {}
}

/// A subclass: inherited keys, one of its own, and the derived key with another dependency.
final class Barge<Tag>: Vessel<Tag>, @unchecked Sendable {
  override class var observableKeys: ObservableKeys<Vessel<Tag>> {
    super.observableKeys + [.derived("double", \Barge.double, affectedBy: ["load", "deck"])]
  }
  @Observed var deck = 0
  override var double: Int { load * 2 + deck }
}
