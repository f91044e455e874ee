/// A package hook for KVOLiteBridge's `TwoWayBinding`: code to run once a set of a `@Published`
/// property has stored its value. Apple's `@Published` publishes in willSet and then stores,
/// overwriting anything its subscribers wrote to the property meanwhile; a subscriber that must
/// write the property in answer to a set (the binding, crossing back a model observer's
/// adjustment of the value it wrote) asks for this instead.
extension Published.Publisher {
  /// Runs `action` once the set of this property in progress on the calling thread has stored
  /// its value, still on this thread and inside the set's serialization (a set of the property
  /// from `action` is published and stored at once, after it). Returns `false`, running
  /// nothing, if the calling thread is not inside a set of this property (a subscriber called
  /// from elsewhere, or at subscription).
  @usableFromInline @discardableResult
  package func afterStore(_ action: @escaping () -> Void) -> Bool {
    let channel = box.channel
    guard channel.sets.isHeldByCurrentThread else { return false }
    channel.afterStore.append(action)
    return true
  }
}

extension PublishedSubject {
  /// Runs `store` (a set's publication and store, with `sets` held), then what was asked to run
  /// after it. A set made from inside `store` on this thread (a subscriber setting the property
  /// again) runs its own actions after its own store: the outer set's wait for the outer store.
  @inlinable
  func storing(_ store: () -> Void) {
    guard afterStore.isEmpty else { return storingNested(store) }
    store()
    guard !afterStore.isEmpty else { return }
    let actions = afterStore
    afterStore = []
    for action in actions { action() }
  }

  /// ``storing(_:)`` inside a set whose subscriber asked for actions already.
  @usableFromInline
  func storingNested(_ store: () -> Void) {
    let enclosing = afterStore
    afterStore = []
    store()
    let actions = afterStore
    afterStore = enclosing
    for action in actions { action() }
  }
}
