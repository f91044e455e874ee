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
/// Thread-safety: sets from several threads are safe but may reach subscribers in either order.
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
  public struct Publisher: KVOLite.Publisher {
    public typealias Output = Value
    public typealias Failure = Never

    @usableFromInline let box: PublishedBox<Value>

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Value, S.Failure == Never {
      box.core.subscribe(subscriber, owner: box.channel)
    }
  }
}

/// The storage of a ``Published`` property: its channel (value, subscribers, the owner's
/// `objectWillChange`) and what `assign(to: &$property)` attached.
@usableFromInline
final class PublishedBox<Value>: @unchecked Sendable {
  // @unchecked: `channel` is thread-safe; `assigned` is behind `lock`.
  @usableFromInline let channel: PublishedChannel<Value>
  private let lock = Lock()
  private var assigned: [AnyCancellable] = []

  init(_ value: Value) {
    channel = PublishedChannel(value)
  }

  @inlinable var value: Value { channel.core.value }
  @inlinable var core: SubjectCore<Value, Never> { channel.core }

  /// The owner's `objectWillChange`, installed by ``ObservableObject``'s synthesized getter.
  var objectWillChange: ObservableObjectPublisher? {
    get { channel.objectWillChange }
    set { channel.objectWillChange = newValue }
  }

  /// A set: `objectWillChange`, then the value to subscribers, then the value stored.
  @inlinable func publish(_ newValue: Value) { channel.publish(newValue) }

  /// Keeps a subscription that assigns into this property for as long as the property lives.
  /// The subscription holds only the channel, never the box, so nothing here is a cycle.
  @usableFromInline
  func attach(_ cancellable: AnyCancellable) {
    lock.withLock { assigned.append(cancellable) }
  }
}

/// What a ``Published`` property sends through: its subject and its owner's `objectWillChange`.
/// Subscriptions of `$property` keep the channel (not the property's box) alive.
@usableFromInline
final class PublishedChannel<Value>: @unchecked Sendable {
  // @unchecked: `core` is thread-safe; `willChange` is behind `lock`.
  @usableFromInline let core: SubjectCore<Value, Never>
  @usableFromInline let lock = Lock()
  @exclusivity(unchecked) @usableFromInline var willChange: ObservableObjectPublisher?

  init(_ value: Value) {
    core = SubjectCore(kind: .published, name: "PublishedSubject", current: value)
  }

  var objectWillChange: ObservableObjectPublisher? {
    get { lock.withLock { willChange } }
    set { lock.withLock { willChange = newValue } }
  }

  /// `objectWillChange`, then the value to subscribers, then the value stored.
  @inlinable
  func publish(_ newValue: Value) {
    lock.withLock { willChange }?.send()
    core.send(newValue)
  }
}

extension Publisher where Failure == Never {
  /// Republishes every value into a `@Published` property, for as long as that property lives.
  ///
  ///     model.publisher(for: \.firstName).assign(to: &$firstName)
  ///
  /// No cancellable is returned: the subscription belongs to the property and ends when the
  /// property's owner is released; it holds only what the property sends through, so it never
  /// keeps the owner alive.
  @inlinable
  public func assign(to published: inout Published<Output>.Publisher) {
    let box = published.box
    let channel = box.channel
    let subscriber = Subscribers.Sink<Output, Never>(
      receiveCompletion: { _ in }, receiveValue: { channel.publish($0) })
    subscribe(subscriber)
    box.attach(AnyCancellable(subscriber))
  }
}
