/// Records events from any thread, in order.
public final class Log<Event: Sendable>: Sendable {
  private let events = Locked<[Event]>([])

  /// An empty log.
  public init() {}

  /// Adds `event` at the end.
  public func append(_ event: Event) { events.withLock { $0.append(event) } }

  /// Every event so far, in order.
  public var all: [Event] { events.withLock { $0 } }
}
