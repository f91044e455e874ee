import KVOLite

/// A model whose module is built without reflection metadata (see `Package.swift`): the
/// runtime lists none of its stored properties, so KVOLite cannot find its `@Observed` ones.
public final class StrippedModel: KeyValueObservable {
  /// The registrar.
  public let observationRegistrar = ObservationRegistrar()
  /// A property that would be a key, if it could be found.
  @Observed public var name = ""

  /// A model.
  public init() {}
}
