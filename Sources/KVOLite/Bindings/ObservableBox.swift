/// A reference box that makes a value observable: `ObservableBox(3).observe(\.value) { … }`.
///
/// The box is a ``KeyValueObservable`` with one key, `value`, which notifies on every set; it
/// is `Identifiable`, `Equatable` and `Hashable` when its value is (comparing values, not
/// boxes). Thread-safe like any ``Observed`` property.
public final class ObservableBox<Value>: KeyValueObservable, @unchecked Sendable {
  // @unchecked: the only mutable state is the Observed value, which locks.
  public let observationRegistrar = ObservationRegistrar()

  /// The boxed value. Every set notifies observers of `value`.
  @Observed public var value: Value

  /// Boxes `value`.
  public init(_ value: Value) {
    self.value = value
  }

  /// The box's one key, `value`. (A generic class cannot have a stored static property, so the
  /// table of each specialization is made once and cached.)
  public static var observableKeys: ObservableKeys<ObservableBox<Value>> {
    GenericKeyTables.table(for: ObservableBox<Value>.self) { [.attribute("value", \.value)] }
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
  public func hash(into hasher: inout Hasher) { hasher.combine(value) }
}

/// The key tables of generic observable classes, one per specialization.
public enum GenericKeyTables {
  private static let lock = Lock()
  nonisolated(unsafe) private static var tables: [ObjectIdentifier: AnyObject] = [:]

  /// The table of `type`, made by `make` the first time it is asked for.
  public static func table<Root: AnyObject>(
    for type: Root.Type, _ make: () -> ObservableKeys<Root>
  ) -> ObservableKeys<Root> {
    // Guarded by `lock`; `make` runs outside it (it may touch other tables).
    if let table = lock.withLock({ tables[ObjectIdentifier(type)] }) {
      return unsafeDowncast(table, to: ObservableKeys<Root>.self)
    }
    let made = make()
    return lock.withLock {
      if let existing = tables[ObjectIdentifier(type)] {
        return unsafeDowncast(existing, to: ObservableKeys<Root>.self)
      }
      tables[ObjectIdentifier(type)] = made
      return made
    }
  }
}
