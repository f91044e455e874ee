/// Whether a set of an ``Observed`` property of an `Observable` class changes it, as
/// `@Observable` decides: `!=` for an `Equatable` type (an `Equatable` class and an optional of
/// an `Equatable` type too), `!==` for any other class, `true` for anything else.
///
/// `@Observable` decides by overload resolution on the property's declared type; a property
/// wrapper sees only its generic `Value`, so this asks the type at run time. The answers are
/// the same for every concrete declared type; a property of a generic type parameter is
/// compared as its actual type is (see the Swift Observation section of
/// <doc:DeclaringObservableModels>). Inlined into the setter, where `Member` is concrete: the
/// cast to `Equatable` of a type that conforms folds away at compile time, and what is left
/// is that type's `!=` (any other type asks the runtime, which caches the answer).
@usableFromInline
enum ObservedEquality {
  /// Whether setting `new` where `old` is stored changes the property (no lock held: `==`
  /// is the type's own code).
  @inlinable @inline(__always)
  static func changes<Member>(_ old: Member, _ new: Member) -> Bool {
    if let equatable = Member.self as? any Equatable.Type {
      return unequal(equatable, old, new)
    }
    if Member.self is AnyObject.Type {
      return unsafeBitCast(old, to: AnyObject.self) !== unsafeBitCast(new, to: AnyObject.self)
    }
    return true
  }

  /// `!=` of `Value`, which is `Member`: the values are read in place as `Value`s (not cast,
  /// not copied).
  @inlinable @inline(__always)
  static func unequal<Value: Equatable, Member>(_: Value.Type, _ old: Member, _ new: Member)
    -> Bool
  {
    withUnsafePointer(to: old) { old in
      withUnsafePointer(to: new) { new in
        UnsafeRawPointer(old).assumingMemoryBound(to: Value.self).pointee
          != UnsafeRawPointer(new).assumingMemoryBound(to: Value.self).pointee
      }
    }
  }
}
