/// A reference box that makes any value observable, both ways a view model observes things.
///
/// - As an ``/KVOLiteCombine/ObservableObject``: `value` is `@Published`, so `objectWillChange` fires before
///   each change and `$value` publishes the current value, then each new one (in willSet).
/// - By key path: the box is a ``/KVOLite/KeyValueObservable`` with one key, `value`, which notifies
///   on every set (`ObservableBox(3).observe(\.value) { … }`, `publisher(for: \.value)`,
///   and key-value coding by the name `"value"`). Its prior notification comes before
///   `objectWillChange`; its post-change notification after the value is stored, with the
///   value that set stored (also when sets race on several threads; their old values are read
///   before each stores, so two racing sets may report the same old value, as `.prior`
///   observers of any key may).
///
/// It is `Identifiable` by its value's `id`, and `Equatable` and `Hashable` by its value
/// (comparing values, not boxes), as in the ObservableBox pattern. Sets from several threads
/// are safe; observers of one set run on the setting thread.
public final class ObservableBox<Value>: ObservableObject, KeyValueObservable, @unchecked Sendable {
  // @unchecked: the only mutable state is the Published value, which locks.
  /// The registrar that keeps this object's observations (``/KVOLite/KeyValueObservable``).
  public let observationRegistrar = ObservationRegistrar()

  /// The boxed value. Every set sends `objectWillChange` and `$value`, and notifies observers
  /// of the key `value`.
  @Published public var value: Value {
    willSet {
      notify { () throws(KeyValueError) in try willChangeValue(for: \.value, to: newValue) }
    }
    didSet { didChangeValue(for: \.value) }
  }

  /// Boxes `value`.
  public init(_ value: Value) {
    _value = Published(wrappedValue: value)
  }

  /// The box's one key, `value`, notified by the box itself. (A generic class cannot have a
  /// stored static property, so the table of each specialization is made once and cached.)
  public static var observableKeys: ObservableKeys<ObservableBox<Value>> {
    GenericKeyTables.table(for: ObservableBox<Value>.self) {
      [.attribute("value", \.value, notifiesAutomatically: false)]
    }
  }

  /// Runs a manual notification of the declared key `value`, which cannot fail.
  private func notify(_ body: () throws(KeyValueError) -> Void) {
    do {
      try body()
    } catch {
      fatalError("ObservableBox declares the key value: \(error)")
    }
  }
}

extension ObservableBox: Identifiable where Value: Identifiable {
  /// The value's identity.
  public var id: Value.ID { value.id }
}

extension ObservableBox: Equatable where Value: Equatable {
  /// Boxes are equal when their values are.
  public static func == (lhs: ObservableBox, rhs: ObservableBox) -> Bool { lhs.value == rhs.value }
}

extension ObservableBox: Hashable where Value: Hashable {
  /// Hashes what `==` compares.
  public func hash(into hasher: inout Hasher) { hasher.combine(value) }
}
