// Foundation's publishers and schedulers, where Apple's Combine does not provide them.
#if !canImport(Combine)
  import Foundation
  import KVOLiteCombine
  import KVOLiteLocking

  extension NotificationCenter {
    /// A publisher of the notifications a center posts with a name (and, optionally, from an
    /// object): Foundation's `NotificationCenter.Publisher`, on Linux too.
    ///
    /// Each subscriber registers its own observer when it subscribes and removes it when it
    /// cancels; until then the center keeps the subscription (and so the subscriber) alive. A notification posted while the subscriber has no demand is dropped. Notifications
    /// arrive on the posting thread. It never completes.
    public struct Publisher: KVOLiteCombine.Publisher {
      /// The kind of values this publisher publishes.
      public typealias Output = Notification
      /// The kind of errors this publisher might publish.
      public typealias Failure = Never

      /// The center observed.
      public let center: NotificationCenter
      /// The notification name observed.
      public let name: Notification.Name
      /// The object whose notifications are observed; `nil` for any.
      public let object: AnyObject?

      /// The notifications named `name` that `center` posts from `object` (any, if `nil`).
      public init(center: NotificationCenter, name: Notification.Name, object: AnyObject? = nil) {
        self.center = center
        self.name = name
        self.object = object
      }

      /// Attaches `subscriber`: it receives its subscription, then values within the demand it
      /// signals, then at most one completion, as ``Publisher/receive(subscriber:)`` states.
      public func receive<S: Subscriber>(subscriber: S)
      where S.Input == Notification, S.Failure == Never {
        let subscription = NotificationSubscription(downstream: subscriber, center: center)
        subscriber.receive(subscription: subscription)
        subscription.observe(name, object: object)
      }
    }

    /// The notifications named `name` from `object` (any, if `nil`), as a publisher.
    ///
    ///     NotificationCenter.default.publisher(for: .didLoad).sink { print($0.name) }
    public func publisher(for name: Notification.Name, object: AnyObject? = nil) -> Publisher {
      Publisher(center: self, name: name, object: object)
    }
  }

  /// One subscriber's observer of a notification center.
  private final class NotificationSubscription<Downstream: Subscriber>: Subscription,
    CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
  where Downstream.Input == Notification, Downstream.Failure == Never {
    // @unchecked: the mutable state is behind `lock`.
    private let lock = Lock()
    private let delivery = RecursiveLock()
    private let center: NotificationCenter
    private var downstream: Downstream?
    private var demand = Subscribers.Demand.none
    private var observer: (any NSObjectProtocol)?

    init(downstream: Downstream, center: NotificationCenter) {
      self.downstream = downstream
      self.center = center
    }

    func observe(_ name: Notification.Name, object: AnyObject?) {
      guard lock.withLock({ downstream != nil }) else { return }
      // The center calls from any thread: the handler is handed over as the thread-safe closure
      // it is (deliveries take the locks). It holds this subscription, as Foundation's does, so
      // that the subscription lives while it is registered; cancelling unregisters it.
      let handler = UncheckedSendable<(Notification) -> Void> { [self] in deliver($0) }
      let token = center.addObserver(forName: name, object: object, queue: nil) {
        handler.value($0)
      }
      let stale = lock.withLock { () -> (any NSObjectProtocol)? in
        guard downstream != nil else { return token }
        observer = token
        return nil
      }
      if let stale { center.removeObserver(stale) }
    }

    private func deliver(_ notification: Notification) {
      guard
        let downstream = lock.withLock({ () -> Downstream? in
          guard let downstream, demand > 0 else { return nil }
          demand -= 1
          return downstream
        })
      else { return }
      let more = delivery.withLock { downstream.receive(notification) }
      if more > 0 { lock.withLock { demand += more } }
    }

    func request(_ newDemand: Subscribers.Demand) {
      precondition(newDemand > 0, "a subscriber must request at least one value, not \(newDemand)")
      lock.withLock { demand += newDemand }
    }

    func cancel() {
      let (downstream, observer) = lock.withLock { (self.downstream.take(), self.observer.take()) }
      withExtendedLifetime(downstream) {}
      if let observer { center.removeObserver(observer) }
    }

    var description: String { "NotificationCenter Observer" }
    var customMirror: Mirror {
      Mirror(
        self, children: [("center", center as Any), ("demand", lock.withLock { demand } as Any)])
    }
    var playgroundDescription: Any { description }
  }
#endif
