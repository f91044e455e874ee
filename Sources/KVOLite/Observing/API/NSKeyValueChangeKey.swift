import Foundation

// Declared where Foundation does not declare it, as the names in FoundationNames.swift are.
#if !canImport(ObjectiveC)
  /// The keys of Foundation's change dictionary, for reading a ``KeyValueChange`` the way
  /// `observeValue(forKeyPath:of:change:context:)` reads its dictionary: `change[.newKey]`.
  public struct NSKeyValueChangeKey: RawRepresentable, Hashable, Sendable {
    /// The key's name, as Foundation spells it (`"kind"`, `"new"`, …).
    public let rawValue: String

    /// The key named `rawValue`.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The kind of the change: a ``KeyValueChangeKind``'s raw value, as a `UInt`.
    public static let kindKey = NSKeyValueChangeKey(rawValue: "kind")
    /// The value after the change (`NSNull` for `nil`), when asked for.
    public static let newKey = NSKeyValueChangeKey(rawValue: "new")
    /// The value before the change (`NSNull` for `nil`), when asked for.
    public static let oldKey = NSKeyValueChangeKey(rawValue: "old")
    /// The `IndexSet` of a to-many change.
    public static let indexesKey = NSKeyValueChangeKey(rawValue: "indexes")
    /// `true` in a prior notification; absent otherwise.
    public static let notificationIsPriorKey = NSKeyValueChangeKey(
      rawValue: "notificationIsPrior")
  }

  extension KeyValueChange {
    /// The entry of Foundation's change dictionary for `key`: what
    /// `observeValue(forKeyPath:of:change:context:)` finds there, with Foundation's rules (an
    /// entry is absent, `nil`, where Foundation leaves it out; a `nil` value that was asked for
    /// is `NSNull`).
    public subscript(key: NSKeyValueChangeKey) -> Any? {
      switch key {
      case .kindKey: UInt(kind.rawValue)
      case .newKey: newValue.map { KeyEntry.box($0) ?? NSNull() }
      case .oldKey: oldValue.map { KeyEntry.box($0) ?? NSNull() }
      case .indexesKey: indexes
      case .notificationIsPriorKey: isPrior ? true : nil
      default: nil
      }
    }
  }
#endif
