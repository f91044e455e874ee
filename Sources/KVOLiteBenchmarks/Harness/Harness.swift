import Dispatch

/// One contender's fixture, built and ready to time: `run(n)` performs the operation `n` times.
struct Case {
  /// The side effect one operation must have: the UTF-8 counts its callbacks add to
  /// ``Effect/total`` (``Pool/length`` per callback of a pooled value). Checked before timing.
  let effectPerOperation: Int
  let run: (_ iterations: Int) -> Void
  /// An extra check run after the sanity run: `nil` when the fixture is in the state it should
  /// be, else what is wrong.
  var check: () -> String? = { nil }
}

/// One way of doing a workload: a name, and a factory that builds the contender's fixture.
struct Contender {
  let name: String
  let make: () -> Case
}

/// A workload: the same job done by every contender, timed in one process.
struct Workload {
  let name: String
  /// What SPEC §8 asks of KVOLite, for the report.
  let target: Target
  /// How many operations one reported unit is made of (A' reports per callback: 100 per set).
  var unitsPerOperation = 1.0
  /// The contender the ratios are to: the fair floor, or for D the floor that does the same
  /// key-path write as the idiom measured.
  var floorName = "floor"
  let contenders: [Contender]
}

/// A contender's samples: nanoseconds per unit, one per round.
struct Samples {
  let name: String
  let values: [Double]

  var median: Double { quantile(0.5) }

  /// The spread: the interquartile range relative to the median, in percent.
  var spreadPercent: Double { median > 0 ? (quantile(0.75) - quantile(0.25)) / median * 100 : 0 }

  private func quantile(_ q: Double) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return 0 }
    return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * q).rounded()))]
  }
}

/// Times workloads. Every case is built first and sanity-checked; then round `r` times
/// repetition `r` of every case, in a rotating order, so that drift in the machine's speed hits
/// all contenders alike.
struct Harness {
  var rounds = 21
  /// The length of one timed batch.
  var batchNanoseconds: UInt64 = 4_000_000
  /// Runs only the contender of that name (for profiling one of them).
  var onlyContender: String?

  /// The samples of every contender, or the sanity failures that stopped the workload.
  func run(_ workload: Workload) -> Swift.Result<[Samples], SanityFailure> {
    let contenders = workload.contenders.filter { onlyContender == nil || $0.name == onlyContender }
    let cases = contenders.map { $0.make() }
    let failures = zip(contenders, cases).compactMap { contender, fixture in
      Harness.sanityCheck(fixture).map { "\(contender.name): \($0)" }
    }
    guard failures.isEmpty else { return .failure(SanityFailure(messages: failures)) }
    let batches = cases.map { calibrate($0.run) }
    var samples = Array(repeating: [Double](), count: cases.count)
    for round in 0..<rounds {
      for offset in cases.indices {
        let index = (offset + round) % cases.count
        let elapsed = time(cases[index].run, batches[index])
        samples[index].append(Double(elapsed) / Double(batches[index]) / workload.unitsPerOperation)
      }
    }
    return .success(zip(contenders, samples).map { Samples(name: $0.name, values: $1) })
  }

  /// Runs a case a few times and checks that it delivered exactly the callbacks it should.
  static func sanityCheck(_ fixture: Case) -> String? {
    let operations = 64
    let before = Effect.total
    fixture.run(operations)
    let effect = Effect.total &- before
    let expected = operations * fixture.effectPerOperation
    if effect != expected {
      return "side effect \(effect) for \(operations) operations, expected \(expected)"
        + " (\(Double(effect) / Double(operations * Pool.length)) callbacks of a pooled value each)"
    }
    return fixture.check()
  }

  /// The number of operations that takes about one batch length.
  private func calibrate(_ operation: (Int) -> Void) -> Int {
    var count = 1
    while true {
      let elapsed = time(operation, count)
      if elapsed >= batchNanoseconds / 4 || count >= 1 << 30 {
        return max(1, Int(Double(count) * Double(batchNanoseconds) / Double(max(elapsed, 1))))
      }
      count *= 4
    }
  }

  private func time(_ operation: (Int) -> Void, _ count: Int) -> UInt64 {
    let start = DispatchTime.now().uptimeNanoseconds
    operation(count)
    return DispatchTime.now().uptimeNanoseconds - start
  }
}

/// Why a workload was not timed: a contender delivered the wrong callbacks.
struct SanityFailure: Error {
  let messages: [String]
}

/// Prevents the optimizer from seeing through a value.
@inline(never)
func opaque<T>(_ value: T) -> T { value }
