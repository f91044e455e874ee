/// A property that publishes its values, as Combine's `@Published`.
///
///     final class ViewModel: ObservableObject {
///       @Published var firstName = ""
///     }
///     let cancellable = viewModel.$firstName.sink { print($0) }  // the current value, then each new one
///
/// The projected publisher (`$firstName`) sends the current value to each new subscriber, then
/// every new value *in willSet*: subscribers see the new value while the property still holds
/// the old one, exactly as Combine does. In an ``ObservableObject``, every set first sends the
/// object's `objectWillChange`. Only available on properties of classes.
///
/// Thread-safety: sets from several threads are safe, and one at a time: a set's value reaches
/// the subscribers and is stored before another thread's set does the same, so the value the
/// property keeps is the last one its subscribers saw. (`objectWillChange` is sent before that,
/// outside it. A subscriber may set the property again from inside `receive`, on its thread: as
/// in Combine, the inner value is published and stored, then the outer one is stored.)
@propertyWrapper
public struct Published<Value> {
  @usableFromInline let box: PublishedBox<Value>

  /// Creates the property with its initial value.
  public init(wrappedValue: Value) {
    box = PublishedBox(wrappedValue)
  }

  /// Creates the property with its initial value (Combine's older spelling).
  public init(initialValue: Value) {
    self.init(wrappedValue: initialValue)
  }

  /// Not available: `@Published` works only on properties of classes.
  @available(*, unavailable, message: "@Published is only available on properties of classes")
  public var wrappedValue: Value {
    get { fatalError() }
    set { fatalError() }  // swift-format-ignore
  }

  /// The publisher of this property's values (`$property`). Assigning to it does nothing; it is
  /// settable so that `assign(to: &$property)` can take it `inout`.
  public var projectedValue: Publisher {
    get { Publisher(box: box) }
    set {}  // swift-format-ignore
  }

  /// The accessor the compiler calls for `object.property`.
  @inlinable
  public static subscript<EnclosingSelf: AnyObject>(
    _enclosingInstance object: EnclosingSelf,
    wrapped wrappedKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Value>,
    storage storageKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Published<Value>>
  ) -> Value {
    get { object[keyPath: storageKeyPath].box.value }
    set { object[keyPath: storageKeyPath].box.publish(newValue) }
  }

  /// The publisher of a `@Published` property: never fails, sends the current value first.
  public struct Publisher: KVOLiteCombine.Publisher {
    /// The kind of values this publisher publishes.
    public typealias Output = Value
    /// The kind of errors this publisher might publish.
    public typealias Failure = Never

    @usableFromInline let box: PublishedBox<Value>

    /// Attaches `subscriber`: it receives its subscription, then values within the demand it
    /// signals, then at most one completion, as ``Publisher/receive(subscriber:)`` states.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Value, S.Failure == Never {
      box.core.subscribe(subscriber, owner: box.channel)
    }
  }
}
