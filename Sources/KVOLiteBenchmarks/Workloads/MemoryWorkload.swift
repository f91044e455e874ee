import CHeapStats
import KVOLiteBridge

/// Workloads M and M1: heap bytes per observation, with 100,000 observations kept alive at
/// once — M: 10 on each of 10,000 objects (what a further observation of a key costs); M1: one
/// on each of 100,000 objects (what the first observation of an object costs, which is what
/// most applications pay: they observe many objects once or twice). Measured as the growth of
/// the allocator's bytes in use (`mallinfo2`), with the objects created and the token arrays
/// reserved beforehand, so that only what registering allocates is counted.
enum MemoryWorkload {
  /// One layout of the 100,000 observations.
  struct Shape {
    /// The row's name, as printed and as `--filter` matches it.
    let name: String
    let objects: Int
    let perObject: Int
  }

  static let furtherObservations = Shape(
    name: "M  heap bytes per observation (100k: 10 on each of 10k objects)", objects: 10_000,
    perObject: 10)
  static let firstObservations = Shape(
    name: "M1 heap bytes per first observation (100k objects, 1 each)", objects: 100_000,
    perObject: 1)

  struct Row {
    let name: String
    let bytesPerObservation: Double?
  }

  static func run(_ shape: Shape) -> [Row] {
    func measure<Model, Token>(_ make: () -> Model, _ observe: (Model) -> Token) -> Double? {
      MemoryWorkload.measure(shape, make, observe)
    }
    return [
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

  private static func measure<Model, Token>(
    _ shape: Shape, _ make: () -> Model, _ observe: (Model) -> Token
  ) -> Double? {
    let (objects, perObject) = (shape.objects, shape.perObject)
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
