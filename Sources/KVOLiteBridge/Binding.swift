/// A read-write view of a value owned elsewhere, through a getter and a setter, as SwiftUI's
/// `Binding`.
///
///     let street = Binding(
///       get: { person.postalAddress.street },
///       set: { person.postalAddress = person.postalAddress.withStreet($0) })
///     street.wrappedValue = "1 Main St"
///
/// Dynamic member lookup derives bindings to properties of the value: `address.city` is a
/// binding whose setter writes the whole value back (for a value type) or the property of the
/// object (for a reference type). A binding holds its closures, and so what they capture.
@propertyWrapper
@dynamicMemberLookup
public struct Binding<Value> {
  private let getValue: () -> Value
  private let setValue: (Value) -> Void

  /// Creates a binding from a getter and a setter.
  public init(get: @escaping () -> Value, set: @escaping (Value) -> Void) {
    getValue = get
    setValue = set
  }

  /// A binding to a value that never changes: sets are ignored.
  public static func constant(_ value: Value) -> Binding {
    Binding(get: { value }, set: { _ in })
  }

  /// The value: reading calls the getter, writing the setter.
  public var wrappedValue: Value {
    get { getValue() }
    nonmutating set { setValue(newValue) }
  }

  /// The binding itself (`$binding`).
  public var projectedValue: Binding<Value> { self }

  /// A binding to a property of a value: setting it sets the whole value back.
  public subscript<Member>(dynamicMember keyPath: WritableKeyPath<Value, Member>) -> Binding<Member>
  {
    Binding<Member>(
      get: { self.wrappedValue[keyPath: keyPath] },
      set: { member in
        var value = self.wrappedValue
        value[keyPath: keyPath] = member
        self.wrappedValue = value
      })
  }

  /// A binding to a property of an object: setting it sets the property of the object.
  public subscript<Member>(dynamicMember keyPath: ReferenceWritableKeyPath<Value, Member>)
    -> Binding<Member>
  {
    Binding<Member>(
      get: { self.wrappedValue[keyPath: keyPath] },
      set: { self.wrappedValue[keyPath: keyPath] = $0 })
  }
}
