import CHeapStats

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
      Row(name: "baseline", bytesPerObservation: measure(BaselineModel.init) { model, sink in
        model.observeValue { sink.consume($0) }
      }),
      Row(name: "KVOLite", bytesPerObservation: measure(KVOLiteModel.init) { model, sink in
        try! model.observe(\.value, options: [.new]) { _, change in sink.consume(change.newValue!) }
      }),
      Row(name: "Observation", bytesPerObservation: measure(ObservationModel.init) { model, sink in
        Rearming(sink: sink) { model.value }
      }),
      Row(name: "naive registry", bytesPerObservation: measure(NaiveModel.init) { model, sink in
        model.observe(\NaiveModel.value) { sink.consume($0 as! Int); return true }
      }),
    ]
  }

  private static func measure<Model, Token>(
    _ make: () -> Model, _ observe: (Model, Sink) -> Token
  ) -> Double? {
      let sink = Sink()
      let models = (0..<objects).map { _ in make() }
      var tokens: [Token] = []
      tokens.reserveCapacity(objects * perObject)
      // Warm up lazily created per-type state (key tables, caches) outside the measurement.
      let warmUp = make()
      tokens.append(observe(warmUp, sink))
      tokens.removeAll(keepingCapacity: true)
      let before = heapBytesInUse()
      for model in models {
        for _ in 0..<perObject { tokens.append(observe(model, sink)) }
      }
      let after = heapBytesInUse()
      withExtendedLifetime((models, tokens, warmUp)) {}
      guard before > 0 else { return nil }
      return Double(Int(after) - Int(before)) / Double(objects * perObject)
  }
}

private func heapBytesInUse() -> Int {
  Int(cheapstats_bytes_in_use())
}
