import KVOLite
import Observation

/// A shipping package: who it goes to, who sends it, and what is in it.
///
/// Thread safety: every stored property is ``/KVOLite/Observed``, so reads and writes are safe from any
/// thread. Mutate `contents` through `mutableArrayValue(for: \.contents)` (or the view model) to
/// notify insertions and removals with their indexes. `summary` is derived from everything it
/// shows and notifies whenever any of it changes.
///
/// `Observable` too: Swift Observation (`withObservationTracking`, `Observations`, SwiftUI) sees
/// every change of its properties, however it is made (a set, key-value coding, a proxy, undo).
public final class Package: KeyValueObservable, Observable, @unchecked Sendable {
  /// The registrar that keeps this object's observations (``/KVOLite/KeyValueObservable``).
  public let observationRegistrar = ObservationRegistrar()
  /// The keys that cannot be found from the `@Observed` properties: the derived `summary` and
  /// `totalWeight`, declared by name so that the REPL reads them by string. What each is made
  /// of is found by reading it.
  public static let observableKeys: ObservableKeys<Package> = [
    .derived("summary", \.summary),
    .derived("totalWeight", \.totalWeight),
  ]

  /// Who receives the package.
  @Observed public var recipient: Person
  /// Who sends it.
  @Observed public var sender: Person
  /// What is in it, in order.
  @Observed public var contents: [PackageContent]

  /// Creates a package.
  public init(
    recipient: Person = Person(), sender: Person = Person(), contents: [PackageContent] = []
  ) {
    self.recipient = recipient
    self.sender = sender
    self.contents = contents
  }

  /// The one-line summary; see ``PackageSummary``.
  public var summary: String { PackageSummary(self).text }
}
