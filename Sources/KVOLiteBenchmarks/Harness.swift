import Dispatch

/// One way of doing a workload: a name, and a factory that builds the contender's fixture and
/// returns the operation to time. `run(n)` performs the operation `n` times.
struct Contender {
  let name: String
  let make: () -> (_ iterations: Int) -> Void
}

/// A workload: the same job done by every contender, timed in one process.
struct Workload {
  let name: String
  /// What SPEC §8 asks of KVOLite, as a ratio to the baseline, for the report.
  let target: String
  /// How many operations one reported unit is made of (A' reports per callback: 100 per set).
  var unitsPerOperation = 1.0
  let contenders: [Contender]
}

/// A workload's result: the median nanoseconds per unit of every contender.
struct Result {
  let workload: Workload
  let medians: [(name: String, nanoseconds: Double?)]
}

/// Times workloads. Contenders of one workload are interleaved: every round measures each of
/// them once, in a rotating order, so drift in the machine's speed hits all of them alike.
struct Harness {
  var rounds = 21
  /// The length of one timed batch.
  var batchNanoseconds: UInt64 = 4_000_000
  /// Runs only the contender of that name (for profiling one of them).
  var onlyContender: String?

  func run(_ workload: Workload) -> Result {
    let contenders = workload.contenders.filter { onlyContender == nil || $0.name == onlyContender }
    let operations = contenders.map { $0.make() }
    let batches = operations.map(calibrate)
    var samples = Array(repeating: [Double](), count: operations.count)
    for round in 0..<rounds {
      for offset in operations.indices {
        let index = (offset + round) % operations.count
        let elapsed = time(operations[index], batches[index])
        samples[index].append(Double(elapsed) / Double(batches[index]) / workload.unitsPerOperation)
      }
    }
    return Result(
      workload: workload,
      medians: zip(contenders, samples).map { ($0.name, median($1)) })
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

  private func median(_ values: [Double]) -> Double? {
    guard !values.isEmpty else { return nil }
    let sorted = values.sorted()
    return sorted[sorted.count / 2]
  }
}

/// Keeps a value alive and observable to the optimizer, so that work is not elided.
final class Sink: @unchecked Sendable {
  var total = 0
  @inline(never) func consume(_ value: Int) { total &+= value }
}

/// Prevents the optimizer from seeing through a value.
@inline(never)
func opaque<T>(_ value: T) -> T { value }
