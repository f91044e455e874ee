import CHeapStats
import KVOLiteBridge

/// Workload M: heap bytes per observation, with 100,000 observations (10 on each of 10,000
/// objects) kept alive at once. Measured as the growth of the allocator's bytes in use
/// (`mallinfo2`), with the objects created and the token arrays reserved beforehand, so that
/// only what registering allocates is counted.
enum MemoryWorkload {
  static let objects = 10_000
  static let perObject = 10

  struct Row {
    let name: String
    let bytesPerObservation: Double?
  }

  static func run() -> [Row] {
    [
      Row(
        name: "floor",
        bytesPerObservation: measure(FloorModel.init) { model in
          model.observeValue { Effect.consume($0) }
        }),
      Row(
        name: "KVOLite",
        bytesPerObservation: measure(KVOLiteModel.init) { model in
          model.observe(\.value, options: [.new]) { _, change in Effect.consume(change.newValue!) }
        }),
      Row(
        name: "Observation",
        bytesPerObservation: measure(ObservationModel.init) { model in
          Rearming { Effect.consume(model.value) }
        }),
      Row(
        name: "naive registry",
        bytesPerObservation: measure(NaiveModel.init) { model in
          model.observe(\NaiveModel.value) {
            Effect.consume($0 as! String)
            return true
          }
        }),
      Row(
        name: "CurrentValueSubject",
        bytesPerObservation: measure(SubjectModel.init) { model in
          model.value.sink { Effect.consume($0) }
        }),
      Row(
        name: "@Published",
        bytesPerObservation: measure(PublishedModel.init) { model in
          model.$value.sink { Effect.consume($0) }
        }),
    ]
  }

  private static func measure<Model, Token>(_ make: () -> Model, _ observe: (Model) -> Token)
    -> Double?
  {
    let models = (0..<objects).map { _ in make() }
    var tokens: [Token] = []
    tokens.reserveCapacity(objects * perObject)
    // Warm up lazily created per-type state (key tables, caches) outside the measurement.
    let warmUp = make()
    tokens.append(observe(warmUp))
    tokens.removeAll(keepingCapacity: true)
    let before = heapBytesInUse()
    for model in models {
      for _ in 0..<perObject { tokens.append(observe(model)) }
    }
    let after = heapBytesInUse()
    withExtendedLifetime((models, tokens, warmUp)) {}
    guard before > 0 else { return nil }
    return Double(after - before) / Double(objects * perObject)
  }
}

private func heapBytesInUse() -> Int {
  Int(cheapstats_bytes_in_use())
}
