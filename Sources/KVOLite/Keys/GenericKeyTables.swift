import KVOLiteLocking

/// The key tables of generic observable classes, one per specialization.
public enum GenericKeyTables {
  private static let lock = Lock(schedules: false)
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
