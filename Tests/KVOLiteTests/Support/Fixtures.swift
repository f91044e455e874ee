import Foundation
import KVOLite
import Synchronization

/// A postal address: the leaf of the fixture chain.
final class Address: KeyValueObservable, @unchecked Sendable {
  let observationRegistrar = ObservationRegistrar()
  static let observableKeys: ObservableKeys<Address> = [
    .attribute("street", \.street),
    .attribute("city", \.city),
  ]
  @Observed var street: String
  @Observed var city = ""
  let onDeinit: (@Sendable () -> Void)?

  init(street: String = "", onDeinit: (@Sendable () -> Void)? = nil) {
    self.street = street
    self.onDeinit = onDeinit
  }
  deinit { onDeinit?() }
}

/// A person with a to-one address, an optional to-one friend and a manually notified key.
final class Person: KeyValueObservable, @unchecked Sendable {
  let observationRegistrar = ObservationRegistrar()
  static let observableKeys: ObservableKeys<Person> = [
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
  @Observed var firstName: String
  @Observed var lastName = ""
  @Observed var age = 0
  @Observed var nickname: String? = nil
  @Observed var manual = 0
  @Observed var address: Address
  @Observed var friend: Person? = nil
  /// Not declared: observing it must be rejected.
  @Observed var undeclared = 0
  /// Declared, but not `@Observed`: it never notifies, so observing it must be rejected.
  var plain = 0
  /// Computed and declared as manually notified: allowed.
  var shouting: String { firstName.uppercased() }
  /// Derived from the first and last names.
  var fullName: String { "\(firstName) \(lastName)" }
  let onDeinit: (@Sendable () -> Void)?

  init(
    firstName: String = "", address: Address = Address(), onDeinit: (@Sendable () -> Void)? = nil
  ) {
    self.firstName = firstName
    self.address = address
    self.onDeinit = onDeinit
  }
  deinit { onDeinit?() }
}

/// The root of the fixture chain.
final class Parcel: KeyValueObservable, @unchecked Sendable {
  let observationRegistrar = ObservationRegistrar()
  static let observableKeys: ObservableKeys<Parcel> = [
    .toOne("recipient", \.recipient),
    .toOne("sender", \.sender),
    .attribute("label", \.label),
  ]
  @Observed var recipient: Person
  @Observed var sender: Person? = nil
  @Observed var label = ""
  let onDeinit: (@Sendable () -> Void)?

  init(recipient: Person = Person(), onDeinit: (@Sendable () -> Void)? = nil) {
    self.recipient = recipient
    self.onDeinit = onDeinit
  }
  deinit { onDeinit?() }
}

/// Counts calls from any thread.
final class Counter: Sendable {
  private let value = Atomic<Int>(0)
  func increment() { value.add(1, ordering: .relaxed) }
  var count: Int { value.load(ordering: .relaxed) }
}

/// A value behind a lock the thread sanitizer understands (`Synchronization.Mutex` is opaque
/// to it on Linux, which yields false reports).
final class Locked<Value: Sendable>: @unchecked Sendable {
  private let lock = NSLock()
  private var value: Value
  init(_ value: Value) { self.value = value }
  func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
    lock.lock()
    defer { lock.unlock() }
    return try body(&value)
  }
}

/// Records events from any thread, in order.
final class Log<Event: Sendable>: Sendable {
  private let events = Locked<[Event]>([])
  func append(_ event: Event) { events.withLock { $0.append(event) } }
  var all: [Event] { events.withLock { $0 } }
}
