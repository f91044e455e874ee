import KVOLiteLocking

extension ObservableKey {
  /// A derived key of a subclass of `Root`, declared in the subclass's override of
  /// ``KeyValueObservable/observableKeys`` (whose table is typed by the class that first
  /// declares it): `.derived("badge", \Employee.badge, affectedBy: ["fullName", "title"])`.
  /// `affectedBy` as in ``derived(_:_:affectedBy:)-(_,KeyPath<Root,Value>,_)``: exactly those key
  /// paths, or, without it, the keys the getter reads.
  ///
  /// - Precondition: `Subclass` is `Root` or a subclass of it.
  public static func derived<Subclass: AnyObject, Value>(
    _ name: String, _ keyPath: KeyPath<Subclass, Value>, affectedBy: [String]? = nil
  ) -> ObservableKey {
    require(
      Subclass.self is Root.Type,
      "KVOLite: .derived(\"\(name)\", …) of \(Subclass.self) is declared among the keys of"
        + " \(Root.self), which is not a superclass of \(Subclass.self)")
    let entry = KeyEntry(
      name: name, keyPath: keyPath, role: .derived, valueType: Value.self, storedType: Value.self,
      notifiesAutomatically: false,
      value: { unsafeDowncast($0, to: Subclass.self)[keyPath: keyPath] })
    entry.affectedBy = affectedBy
    return ObservableKey(entry: entry)
  }
}
