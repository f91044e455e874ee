// swift-format-ignore-file: AllPublicDeclarationsHaveDocumentation

// Test fixtures: what each member is for is in its type's comment or its name.
import Foundation
import KVOLite

/// A postal address: the leaf of the fixture chain.
public final class Address: KeyValueObservable, @unchecked Sendable {
  public let observationRegistrar = ObservationRegistrar()
  public static let observableKeys: ObservableKeys<Address> = [
    .attribute("street", \.street),
    .attribute("city", \.city),
  ]
  @Observed public var street: String
  @Observed public var city = ""
  public let onDeinit: (@Sendable () -> Void)?

  public init(street: String = "", onDeinit: (@Sendable () -> Void)? = nil) {
    self.street = street
    self.onDeinit = onDeinit
  }
  deinit { onDeinit?() }
}

/// A person with a to-one address, an optional to-one friend and a manually notified key.
public final class Person: KeyValueObservable, @unchecked Sendable {
  public let observationRegistrar = ObservationRegistrar()
  public static let observableKeys: ObservableKeys<Person> = [
    .attribute("firstName", \.firstName),
    .attribute("lastName", \.lastName),
    .attribute("age", \.age),
    .attribute("nickname", \.nickname),
    .attribute("manual", \.manual, notifiesAutomatically: false),
    .toOne("address", \.address),
    .toOne("friend", \.friend),
    .attribute("plain", \.plain),
    .attribute("shouting", \.shouting, notifiesAutomatically: false),
    .derived("fullName", \.fullName, affectedBy: ["firstName", "lastName"]),
  ]
  @Observed public var firstName: String
  @Observed public var lastName = ""
  @Observed public var age = 0
  @Observed public var nickname: String? = nil
  @Observed public var manual = 0
  @Observed public var address: Address
  @Observed public var friend: Person? = nil
  /// Not declared: a key all the same, found from its `@Observed` property.
  @Observed public var found = 0
  /// Declared, but not `@Observed`: it never notifies, so observing it must be rejected.
  public var plain = 0
  /// Neither declared nor `@Observed`.
  public var unobserved = 0
  /// Computed and declared as manually notified: allowed.
  public var shouting: String { firstName.uppercased() }
  /// Derived from the first and last names.
  public var fullName: String { "\(firstName) \(lastName)" }
  public let onDeinit: (@Sendable () -> Void)?

  public init(
    firstName: String = "", address: Address = Address(), onDeinit: (@Sendable () -> Void)? = nil
  ) {
    self.firstName = firstName
    self.address = address
    self.onDeinit = onDeinit
  }
  deinit { onDeinit?() }
}

/// The root of the fixture chain.
public final class Parcel: KeyValueObservable, @unchecked Sendable {
  public let observationRegistrar = ObservationRegistrar()
  public static let observableKeys: ObservableKeys<Parcel> = [
    .toOne("recipient", \.recipient),
    .toOne("sender", \.sender),
    .attribute("label", \.label),
  ]
  @Observed public var recipient: Person
  @Observed public var sender: Person? = nil
  @Observed public var label = ""
  public let onDeinit: (@Sendable () -> Void)?

  public init(recipient: Person = Person(), onDeinit: (@Sendable () -> Void)? = nil) {
    self.recipient = recipient
    self.onDeinit = onDeinit
  }
  deinit { onDeinit?() }
}
