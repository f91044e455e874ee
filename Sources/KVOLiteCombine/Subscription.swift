/// The connection between a publisher and a subscriber: Combine's `Subscription`.
public protocol Subscription: Cancellable, CustomCombineIdentifierConvertible {
  /// Asks for up to `demand` more values. Demands accumulate.
  func request(_ demand: Subscribers.Demand)
}
