import Dispatch
import KVOLite

/// Workload C2: 100,000 observers of one key of one object, registered one after another, then
/// invalidated in the order they were registered (the order that makes a list that is copied,
/// or searched from its end, quadratic). Reported in milliseconds for the whole batch: the
/// target is that registration and invalidation stay linear (well under a second each).
enum ScaleWorkload {
  static let observers = 100_000

  /// Milliseconds to register, then to invalidate, every observer; the median of `rounds`.
  static func run(rounds: Int) -> (register: Double, invalidate: Double) {
    var registering: [Double] = []
    var invalidating: [Double] = []
    for _ in 0..<rounds {
      let model = opaque(KVOLiteModel())
      var tokens: [ObservationToken] = []
      tokens.reserveCapacity(observers)
      let start = DispatchTime.now().uptimeNanoseconds
      for _ in 0..<observers {
        tokens.append(
          model.observe(\.value, options: [.new]) { _, change in Effect.consume(change.newValue!) })
      }
      let registered = DispatchTime.now().uptimeNanoseconds
      for token in tokens { token.invalidate() }
      let invalidated = DispatchTime.now().uptimeNanoseconds
      guard model.observationRegistrar.triggerCount == 0 else {
        fatalError("scale: an invalidated observation is still registered")
      }
      registering.append(Double(registered - start) / 1e6)
      invalidating.append(Double(invalidated - registered) / 1e6)
    }
    return (registering.sorted()[rounds / 2], invalidating.sorted()[rounds / 2])
  }
}
