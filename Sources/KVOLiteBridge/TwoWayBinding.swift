/// Binds a model's key path and a view model's `@Published` property both ways, without echo:
/// the recommended way to write a view model over a KVOLite model.
///
/// ```swift
/// final class ContactViewModel: ObservableObject {
///   @Published var firstName = ""
///   private var cancellables = Set<AnyCancellable>()
///
///   init(contact: Contact) {
///     TwoWayBinding.bind(
///       \.firstName, of: contact, to: \.firstName, publishedBy: \.$firstName, on: self
///     )
///     .store(in: &cancellables)
///   }
/// }
/// ```
///
/// It replaces the two pipes of the usual idiom — `publisher(for:)` assigned to the property,
/// and `$property.dropFirst().removeDuplicates().assign(to:on:)` back — whose echo (the model's
/// change, published by the view model, written back to the model) that idiom cannot stop, and
/// whose two sides may disagree for good after concurrent changes.
public enum TwoWayBinding {
  /// Mirrors `keyPath` of `model` and the `@Published` property `property` of `viewModel`
  /// both ways, and returns the one cancellable that ends both directions.
  ///
  /// - At once, the property takes the model's current value.
  /// - Every change of the key path (a set, a replaced intermediate of a chain, key-value coding
  ///   or undo) sets the property to the model's value, once, unless the property shows that
  ///   value already: `objectWillChange` fires, and the property's subscribers see the value.
  /// - Every later value the property publishes is written to the model once, through the key
  ///   path, unless it equals the value the property showed before.
  /// - What one side writes to the other is not written back (the echo is recognized by the
  ///   thread that writes), and an unchanged value is not written again.
  ///
  /// **Threads.** Made outside any actor, the binding crosses on the thread that made the
  /// change. Made on an actor (`isolation`, which is the caller's: a view model isolated to the
  /// main actor binds itself there, in its initializer), it writes the view model only on that
  /// actor: the initial value at once, a change of the model in a task on the actor (as
  /// `receive(on:)` would; the task sets the model's value at that time), and a change of the
  /// view model, made on its actor, crosses at once.
  ///
  /// **Concurrency.** Both sides may change at once from any threads. A change of the property
  /// crosses on the thread that set it, in the property's willSet (KVOLite's `@Published` takes
  /// concurrent sets one at a time). Changes of the model cross one thread at a time: a change
  /// reported while another thread is crossing is crossed by that thread, after the crossing in
  /// progress (so `contact.name = x` may return before `x` reached the view model). The model's
  /// value is read when it crosses, so once the writers on both sides have stopped, both sides
  /// hold the model's last stored value. (Within one thread, Combine's order applies: a
  /// subscriber of the property that changes the model while the property is being set sees its
  /// change overwritten by that set's store, and the binding does not cross it back.)
  ///
  /// **Adjustments.** A model observer that changes the value a set of the property wrote to
  /// the model (normalizing it: `name = name + "!"`) is crossed back once the property has
  /// stored that set's value, so that both sides hold the adjusted value: with KVOLite's
  /// `@Published` (where Apple's Combine is absent), right after the store, on the setting
  /// thread; for a binding made on an actor, in a task there after the set. Apple's
  /// `@Published` off an actor publishes in willSet, then stores, and offers no moment after
  /// its store: there the property keeps the value it was set to and the model the adjusted
  /// one, until either changes again. Bind on the view model's actor, or adjust the value in
  /// the view model before setting it.
  ///
  /// **Lifetime.** The binding retains the model, as `assign(to:on:)` does, and holds the view
  /// model weakly; the model holds neither. So the view model, which holds the cancellable,
  /// typically, keeps its model alive, and releasing the view model releases both.
  /// `cancel()` ends both directions: when it returns, no crossing is in progress on another
  /// thread and none starts, and the binding holds neither side (a crossing lets go of both
  /// before it ends, also on an actor). Called from inside a delivery (a KVOLite handler, a
  /// Combine subscriber, a crossing), it does not wait for crossings on other threads (they
  /// could be waiting for the delivery it is in): one already in progress there may finish
  /// after it returns. The property keeps its value.
  ///
  /// - Parameters:
  ///   - keyPath: A key path of the model made of declared keys: one key or a chain through
  ///     to-one relationships (see ``/KVOLite/KeyValueObservable/observe(_:options:changeHandler:)-(KeyPath<Self,Value>,_,_)``;
  ///     a key path that cannot be observed stops the program, as there).
  ///   - model: The model.
  ///   - property: The view model's `@Published` property, `\.firstName`.
  ///   - publisher: The same property's projected publisher, `\.$firstName`.
  ///   - viewModel: The view model.
  ///   - isolation: The actor the view model is isolated to; by default the caller's.
  /// - Returns: A cancellable that ends the binding when cancelled or released.
  @inlinable
  public static func bind<Model: KeyValueObservable, ViewModel: AnyObject, Value: Equatable>(
    _ keyPath: ReferenceWritableKeyPath<Model, Value>, of model: Model,
    to property: ReferenceWritableKeyPath<ViewModel, Value>,
    publishedBy publisher: KeyPath<ViewModel, Published<Value>.Publisher>,
    on viewModel: ViewModel,
    isolation: (any Actor)? = #isolation
  ) -> AnyCancellable {
    let mirror = TwoWayMirror(
      model: model, read: { $0[keyPath: keyPath] }, write: { $0[keyPath: keyPath] = $1 },
      viewModel: viewModel, show: { $0[keyPath: property] = $1 }, actor: isolation)
    let observation = model.observe(keyPath, options: []) { _, _ in mirror.modelChanged() }
    // The property's current value comes first: it does not cross.
    mirror.start(observation: observation) { mirror in
      viewModel[keyPath: publisher].dropFirst().sink { value in
        #if canImport(Darwin)
          // Apple's `@Published` has no moment after its store (see "Adjustments" above): an
          // adjustment crosses only on an actor, in a task (`viewModelPublished` schedules it).
          _ = mirror.viewModelPublished(value)
        #else
          // A model observer adjusted the value: crossed once the property has stored it.
          if mirror.viewModelPublished(value), let viewModel = mirror.viewModel {
            viewModel[keyPath: publisher].afterStore { mirror.modelChanged() }
          }
        #endif
      }
    }
    return AnyCancellable(mirror)
  }
}
