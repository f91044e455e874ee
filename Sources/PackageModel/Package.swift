import KVOLite

/// A shipping package: who it goes to and who sends it.
///
/// Thread safety: every property is ``Observed``, so reads and writes are safe from any thread.
public final class Package: KeyValueObservable, @unchecked Sendable {
  public let observationRegistrar = ObservationRegistrar()
  public static let observableKeys: ObservableKeys<Package> = [
    .toOne("recipient", \.recipient),
    .toOne("sender", \.sender),
  ]

  /// Who receives the package.
  @Observed public var recipient: Person
  /// Who sends it.
  @Observed public var sender: Person

  /// Creates a package.
  public init(recipient: Person = Person(), sender: Person = Person()) {
    self.recipient = recipient
    self.sender = sender
  }
}
