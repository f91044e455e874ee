import KVOLite
import Observation

/// A postal address: an observable reference model, so that a view can watch its street.
///
/// Thread safety: every property is ``/KVOLite/Observed``, so reads and writes are safe from any thread.
///
/// `Observable` too: Swift Observation (`withObservationTracking`, `Observations`, SwiftUI) sees
/// every change of its properties, however it is made (a set, key-value coding, a proxy, undo).
public final class PostalAddress: KeyValueObservable, Observable, @unchecked Sendable {
  /// The registrar that keeps this object's observations (``/KVOLite/KeyValueObservable``).
  public let observationRegistrar = ObservationRegistrar()
  /// The street and number, e.g. `1 Main St`.
  @Observed public var street: String
  /// The city.
  @Observed public var city: String
  /// The postal code, kept as text (codes may have letters and leading zeros).
  @Observed public var postalCode: String
  /// The country.
  @Observed public var country: String

  /// Creates an address; every part defaults to empty.
  public init(street: String = "", city: String = "", postalCode: String = "", country: String = "")
  {
    self.street = street
    self.city = city
    self.postalCode = postalCode
    self.country = country
  }

  /// A new address equal to this one but for the street.
  public func withStreet(_ street: String) -> PostalAddress {
    PostalAddress(street: street, city: city, postalCode: postalCode, country: country)
  }
}
