import KVOLite
import Observation

/// A sender or recipient of a package.
///
/// Thread safety: every stored property is ``/KVOLite/Observed``, so reads and writes are safe from any
/// thread. `fullName` is derived from the first and last names.
///
/// `Observable` too: Swift Observation (`withObservationTracking`, `Observations`, SwiftUI) sees
/// every change of its properties, however it is made (a set, key-value coding, a proxy, undo).
public final class Person: KeyValueObservable, Observable, @unchecked Sendable {
  /// The registrar that keeps this object's observations (``/KVOLite/KeyValueObservable``).
  public let observationRegistrar = ObservationRegistrar()
  /// The key that cannot be found from the `@Observed` properties: `fullName`, declared by name
  /// so that the REPL reads it by string, with the keys it is made of (as Foundation's
  /// `keyPathsForValuesAffectingFullName`): declared, a change of a name notifies it without
  /// running its getter under the probe that finds a getter's inputs, which the editor's every
  /// set of a name would pay.
  public static let observableKeys: ObservableKeys<Person> = [
    .derived("fullName", \.fullName, affectedBy: ["firstName", "lastName"])
  ]

  /// The first name.
  @Observed public var firstName: String
  /// The last name.
  @Observed public var lastName: String
  /// Where the person receives mail. Replacing it notifies observers of every path through it.
  @Observed public var postalAddress: PostalAddress

  /// Creates a person.
  public init(
    firstName: String = "", lastName: String = "", postalAddress: PostalAddress = PostalAddress()
  ) {
    self.firstName = firstName
    self.lastName = lastName
    self.postalAddress = postalAddress
  }

  /// "First Last", without extra spaces when a part is empty.
  public var fullName: String {
    let (first, last) = (firstName, lastName)
    if first.isEmpty { return last }
    return last.isEmpty ? first : first + " " + last
  }
}
