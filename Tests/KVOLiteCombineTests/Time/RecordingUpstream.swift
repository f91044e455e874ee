import KVOLiteCombine
import KVOLiteTestSupport

/// A publisher whose subscription logs the requests and the cancel it gets (`"request(max(1))"`,
/// `"cancel"`), and calls `onCancel` after logging the cancel. It sends nothing.
final class RecordingUpstream: Publisher, Sendable {
  typealias Output = Int
  typealias Failure = Never

  private let log: Log<String>
  private let onCancel: @Sendable () -> Void

  init(log: Log<String>, onCancel: @escaping @Sendable () -> Void) {
    self.log = log
    self.onCancel = onCancel
  }

  func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
    subscriber.receive(subscription: Logging(log: log, onCancel: onCancel))
  }

  private final class Logging: Subscription, Sendable {
    let log: Log<String>
    let onCancel: @Sendable () -> Void
    init(log: Log<String>, onCancel: @escaping @Sendable () -> Void) {
      self.log = log
      self.onCancel = onCancel
    }
    func request(_ demand: Subscribers.Demand) { log.append("request(\(demand))") }
    func cancel() {
      log.append("cancel")
      onCancel()
    }
  }
}
