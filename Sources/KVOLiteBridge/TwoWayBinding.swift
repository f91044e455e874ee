/// Binds a model's key path and a view model's `@Published` property both ways, without echo:
/// the recommended way to write a view model over a KVOLite model.
///
///     final class ContactViewModel: ObservableObject {
///       @Published var firstName = ""
///       private var cancellables = Set<AnyCancellable>()
///
///       init(contact: Contact) {
///         TwoWayBinding.bind(\.firstName, of: contact, to: \.firstName, publishedBy: \.$firstName, on: self)
///           .store(in: &cancellables)
///       }
///     }
///
/// It replaces the two pipes of the usual idiom — `publisher(for:)` assigned to the property,
/// and `$property.dropFirst().removeDuplicates().assign(to:on:)` back — whose echo (the model's
/// change, published by the view model, written back to the model) that idiom cannot stop.
public enum TwoWayBinding {
  /// Mirrors `keyPath` of `model` and the `@Published` property `property` of `viewModel`
  /// both ways, and returns the one cancellable that ends both directions.
  ///
  /// - At once, the property takes the model's current value.
  /// - Every change of the key path (a set, a replaced intermediate of a chain, key-value coding
  ///   or undo) is set on the property once, on the thread that made it: `objectWillChange`
  ///   fires, and the property's subscribers see the value.
  /// - Every later value the property publishes is written to the model once, through the key
  ///   path, on the thread that set the property.
  /// - A value equal to the last one that crossed, in either direction, does not cross: that
  ///   stops the echo, and an unchanged value is not written again.
  ///
  /// The binding retains the model, as `assign(to:on:)` does, and holds the view model weakly;
  /// the model holds neither (its observation holds the view model weakly). So the view model,
  /// which holds the cancellable, typically, keeps its model alive, and releasing the view model
  /// releases both. After `cancel()`, nothing crosses; the property keeps its value.
  ///
  /// Both sides may change at once from different threads: each direction writes the other
  /// side directly (no subject stands between them, whose delivery lock two threads crossing
  /// in opposite directions would take in opposite orders), and the guard that stops the echo
  /// calls `==` outside its lock.
  ///
  /// - Parameters:
  ///   - keyPath: A key path of the model made of declared keys: one key or a chain through
  ///     to-one relationships (see ``/KVOLite/KeyValueObservable/observe(_:options:changeHandler:)-(KeyPath<Self,Value>,_,_)``;
  ///     a key path that cannot be observed stops the program, as there).
  ///   - model: The model.
  ///   - property: The view model's `@Published` property, `\.firstName`.
  ///   - publisher: The same property's projected publisher, `\.$firstName`.
  ///   - viewModel: The view model.
  /// - Returns: A cancellable that ends the binding when cancelled or released.
  @inlinable
  public static func bind<Model: KeyValueObservable, ViewModel: AnyObject, Value: Equatable>(
    _ keyPath: ReferenceWritableKeyPath<Model, Value>, of model: Model,
    to property: ReferenceWritableKeyPath<ViewModel, Value>,
    publishedBy publisher: KeyPath<ViewModel, Published<Value>.Publisher>,
    on viewModel: ViewModel
  ) -> AnyCancellable {
    let echo = EchoGuard<Value>()
    let observation = model.observe(keyPath, options: [.initial, .new]) {
      [weak viewModel] _, change in
      guard let viewModel, let value = change.newValue, echo.crossing(value) else { return }
      viewModel[keyPath: property] = value
    }
    // The property's current value (the model's, by now) comes first: it is not written back.
    let toModel = viewModel[keyPath: publisher].dropFirst().sink { value in
      guard echo.crossing(value) else { return }
      model[keyPath: keyPath] = value
    }
    return AnyCancellable {
      observation.invalidate()
      toModel.cancel()
    }
  }
}
