/// A type of object with a publisher that emits before the object changes: Combine's
/// `ObservableObject`.
///
/// By default `objectWillChange` is synthesized: it emits before any ``Published`` property of
/// the object changes.
///
///     final class Contact: ObservableObject {
///       @Published var name = ""
///     }
///     let cancellable = contact.objectWillChange.sink { print("will change to", contact.name) }
///
/// The synthesized getter finds the `@Published` properties by reflection, so it costs a few
/// microseconds: subscribe once, rather than reading it per change.
public protocol ObservableObject: AnyObject {
  /// The type of publisher that emits before the object changes.
  associatedtype ObjectWillChangePublisher: Publisher = ObservableObjectPublisher
  where ObjectWillChangePublisher.Failure == Never

  /// A publisher that emits before the object changes.
  var objectWillChange: ObjectWillChangePublisher { get }
}

extension ObservableObject where ObjectWillChangePublisher == ObservableObjectPublisher {
  /// The synthesized publisher: one per object, shared by all its `@Published` properties. An
  /// object without any returns a new publisher that never emits.
  public var objectWillChange: ObservableObjectPublisher {
    var boxes: [any PublishedStorage] = []
    var mirror: Mirror? = Mirror(reflecting: self)
    while let current = mirror {
      boxes += current.children.compactMap { $0.value as? any PublishedStorage }
      mirror = current.superclassMirror
    }
    guard let first = boxes.first else { return ObservableObjectPublisher() }
    // The first property's publisher is the object's: whoever installs it first decides, and
    // every thread installs that one in the others (each property keeps the first it gets).
    let publisher = first.install(ObservableObjectPublisher())
    for box in boxes.dropFirst() { _ = box.install(publisher) }
    return publisher
  }
}
