import Foundation
import KVOLiteLocking

/// The debug-build warning for a set made between `willChangeValue` and `didChangeValue` of a
/// key that notifies its sets automatically: its observers are notified twice, once by the set
/// and once by the pair (as Foundation does), which a ported pair around a property that now
/// notifies by itself does silently. Printed once per class and key, to standard error, after
/// the set's notifications (no lock held).
package enum ManualPairWarning {
  private static let lock = Lock(schedules: false)
  /// The classes and keys warned of. Guarded by `lock`.
  nonisolated(unsafe) private static var warned: Set<String> = []
  /// Where warnings go while tests capture them (each capture gets every warning), by
  /// capture; standard error when there is none. Guarded by `lock`.
  nonisolated(unsafe) private static var sinks: [Int: @Sendable (String) -> Void] = [:]
  /// The number of the next capture. Guarded by `lock`.
  nonisolated(unsafe) private static var nextCapture = 0

  /// The warning for key `key` of the class named `type`.
  package static func message(type: String, key: String) -> String {
    "KVOLite warning: \(type).\(key) was set between willChangeValue and didChangeValue, and it"
      + " notifies its sets automatically, so its observers were notified twice; declare it"
      + " @Observed(notifiesAutomatically: false) to notify only by hand, or remove the pair"
      + " (printed once per key, in debug builds)"
  }

  /// Prints the warning for key `index` of `table`'s class, unless it was printed before.
  static func warn(_ table: KeyTable, key index: Int) {
    let message = message(type: table.typeName, key: table.entries[index].name)
    let targets: [@Sendable (String) -> Void]? = lock.withLock {
      guard warned.insert(message).inserted else { return nil }
      return Array(sinks.values)
    }
    guard let targets else { return }
    if targets.isEmpty {
      FileHandle.standardError.write(Data((message + "\n").utf8))
    }
    for sink in targets { sink(message) }
  }

  /// Runs `body` with the warnings printed meanwhile sent to `sink` instead of standard error,
  /// for tests. Captures may overlap (tests run in parallel): each gets every warning, so a
  /// test keeps those of its own classes. A key is still warned of once per process.
  package static func capturing<Result>(
    _ sink: @escaping @Sendable (String) -> Void, _ body: () throws -> Result
  ) rethrows -> Result {
    let capture = lock.withLock {
      defer { nextCapture += 1 }
      sinks[nextCapture] = sink
      return nextCapture
    }
    defer { _ = lock.withLock { sinks.removeValue(forKey: capture) } }
    return try body()
  }
}
