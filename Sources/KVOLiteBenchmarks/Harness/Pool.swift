/// The values every workload sets: distinct heap-allocated strings, made once.
///
/// Each is `Pool.length` (24) UTF-8 bytes, too long for Swift's inline small-string form, so
/// that every set retains the new value and releases the old one as a real model's does. They all
/// have the same length, so that a callback's side effect (adding the UTF-8 count, see
/// ``Effect``) tells how many callbacks ran whatever the values were.
enum Pool {
  static let length = 24
  static let size = 64
  static let strings: [String] = (0..<size).map { index in
    let digits = String(index)
    let value = "pooled-string-value-" + String(repeating: "0", count: 4 - digits.count) + digits
    guard value.utf8.count == length else { fatalError("pool: a value of the wrong length") }
    return value
  }

  /// The value for operation `index`.
  @inline(__always)
  static func value(_ index: Int) -> String { strings[index & (size - 1)] }
}

/// The side effect every callback performs: adding the UTF-8 count of the value it received
/// to a global, which the optimizer cannot remove because the report reads it.
enum Effect {
  // Unchecked: a dynamic exclusivity check on every callback would cost more than most of the
  // work measured. The benchmark is single-threaded.
  @exclusivity(unchecked) nonisolated(unsafe) static var total = 0

  @inline(__always)
  static func consume(_ value: String) { total &+= value.utf8.count }
}

extension Effect {
  /// The side effect for a callback that receives a number rather than a pooled string: adds
  /// ``Pool/length`` as long as `value` is below 2^62, which the optimizer cannot know.
  @inline(__always)
  static func consume(_ value: Int) { total &+= Pool.length &+ (value >> 62) }
}
