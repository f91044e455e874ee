import KVOLiteLocking
import Synchronization

/// Something an ``ObservationToken`` ends: a direct observation of one key (``TypedRecord``)
/// or any other kind (see ``ObservationPlan``).
///
/// A class rather than a protocol, so that a token holds one word, not an existential.
@usableFromInline
class Observation: @unchecked Sendable {
  /// Ends the observation; see ``ObservationToken/invalidate()`` for the contract.
  @usableFromInline func invalidate() {}

  @usableFromInline init() {}
}

/// The global registration counter: observations are delivered in its order.
let registrationCounter = Atomic<UInt64>(0)

/// The next registration number.
func nextRegistrationOrder() -> UInt64 {
  registrationCounter.add(1, ordering: .relaxed).newValue
}

/// Waits until no delivery iterates any of the lists `held` on another thread, unless this
/// thread is itself inside a delivery, KVOLite's or a Combine subscriber's (waiting there could
/// deadlock with a thread doing the same, or with one waiting for the delivery lock it holds).
func waitForDeliveries(holding held: [(context: RegistrarContext, lists: [ObserverList])]) {
  guard held.contains(where: { !$0.lists.isEmpty }), !DeliveryScope.isDelivering else { return }
  for (context, lists) in held { context.waitUntilDelivered(lists) }
}

/// ``waitForDeliveries(holding:)`` for the lists of one context.
func waitForDeliveries(holding held: (context: RegistrarContext, lists: [ObserverList])) {
  guard !held.lists.isEmpty, !DeliveryScope.isDelivering else { return }
  held.context.waitUntilDelivered(held.lists)
}
