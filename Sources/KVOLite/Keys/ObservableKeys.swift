import KVOLiteLocking
import Synchronization

/// Keys of an observable class: the declarations of ``KeyValueObservable/observableKeys``, or,
/// from ``KeyValueObservable/allObservableKeys``, every key of a class.
///
/// A class declares in ``KeyValueObservable/observableKeys`` only what cannot be found from its
/// ``Observed`` properties (derived keys, keys under another name, keys notified by hand,
/// indexed accessors), usually with an array literal of ``ObservableKey`` declarations. String
/// key paths (`"recipient.postalAddress.street"`) and typed key paths with several hops
/// (`\Package.recipient.firstName`) are resolved through the class's keys.
///
/// Tables are immutable after creation and safe to use from any thread.
public final class ObservableKeys<Root: AnyObject>: ExpressibleByArrayLiteral, Sendable {
  @usableFromInline let table: KeyTable

  /// Creates a table from declarations. Names must be unique, non-empty, and contain neither
  /// `.` nor `@`; a violation is a programming error and traps with a message naming the key.
  public init(_ keys: [ObservableKey<Root>]) {
    table = KeyTable(typeName: String(describing: Root.self), entries: keys.map(\.entry))
  }

  /// The table of `keys`, in order. A key name that is empty, holds a dot or starts with `@`,
  /// or is declared twice, is a programming error (a precondition failure).
  public convenience init(arrayLiteral keys: ObservableKey<Root>...) {
    self.init(keys)
  }

  /// A table over an existing one (``KeyValueObservable/allObservableKeys``).
  init(table: KeyTable) {
    self.table = table
  }

  /// The keys, in order: for a class's declarations, declaration order; for every key of a
  /// class, its superclass's keys first, then its ``Observed`` properties in declaration
  /// order, then its other declarations.
  public var keys: [ObservableKey<Root>] { table.entries.map(ObservableKey.init(entry:)) }

  /// The key named `name`, if there is one.
  public subscript(name: String) -> ObservableKey<Root>? {
    table.indexByName[name].map { ObservableKey(entry: table.entries[$0]) }
  }

  /// These declarations followed by `more`, where a declaration of `more` replaces the one of
  /// the same name here, in its place: how a subclass that overrides
  /// ``KeyValueObservable/observableKeys`` adds keys and changes what affects a derived key
  /// (`super.observableKeys + [.derived("fullName", \.fullName, affectedBy: […])]`). Names
  /// repeated within `more` are a programming error, as in ``init(_:)``.
  public static func + (keys: ObservableKeys, more: [ObservableKey<Root>]) -> ObservableKeys {
    let added = ObservableKeys(more)  // Checks the names of `more`.
    var merged = keys.keys
    for key in added.keys {
      if let index = merged.firstIndex(where: { $0.name == key.name }) {
        merged[index] = key
      } else {
        merged.append(key)
      }
    }
    return ObservableKeys(merged)
  }
}

extension KeyValueObservable {
  /// Every key of this class: its superclass's keys, each of its ``Observed`` properties
  /// (named after the property, its role from its type), and what
  /// ``KeyValueObservable/observableKeys`` declares. Found the first time the class is used,
  /// then kept; safe from any thread.
  ///
  /// A key found from an ``Observed`` property has no ``ObservableKey/keyPath`` (the runtime
  /// cannot make the key path of a property-wrapped property).
  ///
  /// - Precondition: The class's declarations agree with its properties: a problem (a
  ///   declaration under the name of another property's key, a derived key named like a
  ///   stored one) stops the program with one message naming the class, the key and the fix.
  public static var allObservableKeys: ObservableKeys<Self> {
    ObservableKeys(table: KeyTable.of(self))
  }
}
