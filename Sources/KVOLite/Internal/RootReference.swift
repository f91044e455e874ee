/// A reference to the root of a path observation: it does not keep the root alive, and gives
/// a strong reference only while the root is not being released.
///
/// A weak reference, with its cost: the root gets a side table, and its retains and releases
/// take the runtime's slower path. (An unowned reference with a try-retain would avoid that,
/// but the runtime's try-retain is not API.)
struct RootReference<Object: AnyObject>: @unchecked Sendable {
  // @unchecked: a weak reference is read and cleared atomically by the runtime.
  private weak var reference: Object?

  init(_ object: Object) {
    reference = object
  }

  /// The root, retained for the caller, or `nil` if it is being released or was released.
  var object: Object? { reference }
}
