// Foundation's publishers and schedulers, where Apple's Combine does not provide them.
#if !canImport(Darwin)
  import Foundation
  import KVOLiteCombine
  import KVOLiteLocking

  extension NotificationCenter {
    /// A publisher of the notifications a center posts with a name (and, optionally, from an
    /// object): Foundation's `NotificationCenter.Publisher`, on Linux too.
    ///
    /// Each subscription registers its own observer (before its subscriber receives it) and
    /// removes it when cancelled; as Foundation's, the observer refers to the subscription
    /// weakly, so a subscription nobody keeps goes away (its observer then does nothing). The
    /// subscription keeps the center alive until it is cancelled. A notification posted while
    /// the subscriber has no demand is dropped; a request for `.none` adds nothing.
    /// Notifications arrive on the posting thread, one at a time per subscriber. It never
    /// completes. Two publishers are equal when they observe the same center, name and object.
    public struct Publisher: KVOLiteCombine.Publisher, Equatable {
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
        let subscription = NotificationSubscription(
          downstream: subscriber, center: center, name: name, object: object)
        subscriber.receive(subscription: subscription)
      }

      /// Whether both observe the same center, name and object (the same instances).
      public static func == (lhs: Publisher, rhs: Publisher) -> Bool {
        lhs.center === rhs.center && lhs.name == rhs.name && lhs.object === rhs.object
      }
    }

    /// The notifications named `name` from `object` (any, if `nil`), as a publisher.
    ///
    ///     NotificationCenter.default.publisher(for: .didLoad).sink { print($0.name) }
    public func publisher(for name: Notification.Name, object: AnyObject? = nil) -> Publisher {
      Publisher(center: self, name: name, object: object)
    }
  }

  /// One subscriber's observer of a notification center ("NotificationCenter Observer"): the
  /// observer is added when this is made and removed on cancel; it refers to this subscription
  /// weakly. Deliveries are serialized by a recursive lock; the state is behind `lock`, and
  /// nothing is called with it held.
  private final class NotificationSubscription<Downstream: Subscriber>: Subscription,
    CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
  where Downstream.Input == Notification, Downstream.Failure == Never {
    // @unchecked: the mutable state is behind `lock`.
    private let lock = Lock()
    private let delivery = RecursiveLock()
    private var center: NotificationCenter?
    private let name: Notification.Name
    private var object: AnyObject?
    private var downstream: Downstream?
    private var demand = Subscribers.Demand.none
    private var observer: (any NSObjectProtocol)?

    init(
      downstream: Downstream, center: NotificationCenter, name: Notification.Name,
      object: AnyObject?
    ) {
      self.downstream = downstream
      self.center = center
      self.name = name
      self.object = object
      // The center calls from any thread: the handler is handed over as the thread-safe closure
      // it is (deliveries take the locks). It refers to this subscription weakly, as
      // Foundation's does.
      let handler = UncheckedSendable<(Notification) -> Void> { [weak self] in
        self?.deliver($0)
      }
      observer = center.addObserver(forName: name, object: object, queue: nil) {
        handler.value($0)
      }
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
      lock.withLock { demand += newDemand }
    }

    func cancel() {
      let (center, observer, ended) = lock.withLock {
        () -> (NotificationCenter?, (any NSObjectProtocol)?, (Downstream?, AnyObject?)) in
        (self.center.take(), self.observer.take(), (downstream.take(), object.take()))
      }
      withExtendedLifetime(ended) {}
      if let center, let observer { center.removeObserver(observer) }
    }

    var description: String { "NotificationCenter Observer" }
    var customMirror: Mirror {
      let (center, object, demand) = lock.withLock { (self.center, self.object, self.demand) }
      return Mirror(
        self,
        children: [
          ("center", center as Any), ("name", name), ("object", object as Any),
          ("demand", demand),
        ])
    }
    var playgroundDescription: Any { description }
  }
#endif
