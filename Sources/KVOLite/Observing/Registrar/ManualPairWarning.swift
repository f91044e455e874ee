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
  /// Where warnings go (standard error); tests replace it to read them. Guarded by `lock`.
  nonisolated(unsafe) private static var sink: @Sendable (String) -> Void = { message in
    FileHandle.standardError.write(Data((message + "\n").utf8))
  }

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
    let print = lock.withLock { warned.insert(message).inserted ? sink : nil }
    print?(message)
  }

  /// Runs `body` with warnings sent to `sink` and every key warned of forgotten, for tests.
  package static func capturing<Result>(
    _ sink: @escaping @Sendable (String) -> Void, _ body: () throws -> Result
  ) rethrows -> Result {
    let saved = lock.withLock {
      defer { (self.sink, warned) = (sink, []) }
      return self.sink
    }
    defer { lock.withLock { (self.sink, warned) = (saved, []) } }
    return try body()
  }
}
