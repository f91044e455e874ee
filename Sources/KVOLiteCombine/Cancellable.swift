/// Something that can be cancelled, such as a subscription: Combine's `Cancellable`.
///
/// Cancelling frees the resources the activity holds and stops its callbacks. Cancelling is
/// idempotent.
public protocol Cancellable {
  /// Cancels the activity.
  func cancel()
}

extension Cancellable {
  /// Keeps this cancellable in `set`, wrapped in an ``AnyCancellable``, so that it lives as long
  /// as the set does.
  public func store(in set: inout Set<AnyCancellable>) {
    AnyCancellable(self).store(in: &set)
  }

  /// Keeps this cancellable in `collection`, wrapped in an ``AnyCancellable``.
  public func store<C: RangeReplaceableCollection>(in collection: inout C)
  where C.Element == AnyCancellable {
    AnyCancellable(self).store(in: &collection)
  }
}
