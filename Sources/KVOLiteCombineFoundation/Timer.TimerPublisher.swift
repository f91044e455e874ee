// Foundation's publishers and schedulers, where Apple's Combine does not provide them.
#if !canImport(Darwin)
  import Foundation
  import KVOLiteCombine
  import KVOLiteLocking

  extension Timer {
    /// A connectable publisher of the date every `interval`, on a run loop: Foundation's
    /// `Timer.TimerPublisher`, on Linux too.
    ///
    /// ``connect()`` schedules a repeating timer on the run loop in the mode, first firing one
    /// interval later (the run loop must run for it to fire); cancelling a connection
    /// invalidates its timer and disconnects every subscriber, as Foundation's does. Each
    /// subscriber gets the dates fired while it has demand; others are dropped. Use
    /// ``ConnectablePublisher/autoconnect()`` to connect with the first subscriber. Its
    /// subscriptions do not describe themselves, as Foundation's do not. Thread-safe: the
    /// subscribers are behind `lock`, and called after unlocking.
    public final class TimerPublisher: ConnectablePublisher, @unchecked Sendable {
      // @unchecked: the run loop and mode are only handed to the timer; `sides` is behind
      // `lock`.
      /// The kind of values this publisher publishes.
      public typealias Output = Date
      /// The kind of errors this publisher might publish.
      public typealias Failure = Never

      /// The time between dates.
      public let interval: TimeInterval
      /// The tolerance allowed the timer (`nil` for none).
      public let tolerance: TimeInterval?
      /// The run loop the timer is scheduled on.
      public let runLoop: RunLoop
      /// The run loop mode.
      public let mode: RunLoop.Mode
      /// Scheduling options (none yet).
      public let options: RunLoop.SchedulerOptions?

      private let lock = Lock()
      /// Each subscription's delivery, by its identifier.
      private var sides: [CombineIdentifier: (Date) -> Void] = [:]

      /// A timer publisher (`Timer.publish(every:…)` makes one without a tolerance).
      public init(
        interval: TimeInterval, tolerance: TimeInterval? = nil, runLoop: RunLoop,
        mode: RunLoop.Mode,
        options: RunLoop.SchedulerOptions? = nil
      ) {
        self.interval = interval
        self.tolerance = tolerance
        self.runLoop = runLoop
        self.mode = mode
        self.options = options
      }

      /// Attaches `subscriber`: it receives its subscription, then values within the demand it
      /// signals, then at most one completion, as ``Publisher/receive(subscriber:)`` states.
      public func receive<S: Subscriber>(subscriber: S) where S.Input == Date, S.Failure == Never {
        let inner = TimerSubscription(parent: self, downstream: subscriber)
        lock.withLock { sides[inner.combineIdentifier] = inner.send }
        subscriber.receive(subscription: inner)
      }

      /// Starts a timer, first firing one interval from now; cancelling the result stops it
      /// and disconnects every subscriber.
      public func connect() -> any Cancellable {
        // Foundation on Linux fires a timer made with `Timer(timeInterval:repeats:block:)` at
        // once; Combine's first fires after the interval, so the first date is given.
        let publisher = UncheckedSendable(self)
        let timer = Timer(
          fire: Date(timeIntervalSinceNow: interval), interval: interval, repeats: true
        ) {
          _ in publisher.value.fire()
        }
        timer.tolerance = tolerance ?? 0
        runLoop.add(timer, forMode: mode)
        let handle = UncheckedSendable(timer)
        return AnyCancellable { [self] in
          disconnectAll()
          handle.value.invalidate()
        }
      }

      private func fire() {
        let now = Date()
        for send in lock.withLock({ Array(sides.values) }) { send(now) }
      }

      private func disconnectAll() {
        let removed = lock.withLock { () -> [CombineIdentifier: (Date) -> Void] in
          defer { sides = [:] }
          return sides
        }
        withExtendedLifetime(removed) {}
      }

      fileprivate func disconnect(_ identifier: CombineIdentifier) {
        let removed = lock.withLock { sides.removeValue(forKey: identifier) }
        withExtendedLifetime(removed) {}
      }
    }

    /// A publisher of the date every `interval` on `runLoop` in `mode`, once connected. As in
    /// Combine, `tolerance` is not used: the publisher has none.
    ///
    ///     Timer.publish(every: 1, on: .main, in: .common).autoconnect().sink { tick($0) }
    public static func publish(
      every interval: TimeInterval, tolerance: TimeInterval? = nil, on runLoop: RunLoop,
      in mode: RunLoop.Mode,
      options: RunLoop.SchedulerOptions? = nil
    ) -> TimerPublisher {
      TimerPublisher(interval: interval, runLoop: runLoop, mode: mode, options: options)
    }
  }

  /// One subscriber of a timer publisher: the dates it has asked for. Thread-safe: the state
  /// is behind `lock`.
  private final class TimerSubscription<Downstream: Subscriber>: Subscription, @unchecked Sendable
  where Downstream.Input == Date, Downstream.Failure == Never {
    // @unchecked: the mutable state is behind `lock`.
    private let lock = Lock()
    private var downstream: Downstream?
    private var demand = Subscribers.Demand.none
    private weak var parent: Timer.TimerPublisher?

    init(parent: Timer.TimerPublisher, downstream: Downstream) {
      self.parent = parent
      self.downstream = downstream
    }

    func send(_ date: Date) {
      guard
        let downstream = lock.withLock({ () -> Downstream? in
          guard let downstream, demand > 0 else { return nil }
          demand -= 1
          return downstream
        })
      else { return }
      let more = downstream.receive(date)
      if more > 0 { lock.withLock { demand += more } }
    }

    func request(_ newDemand: Subscribers.Demand) {
      lock.withLock { if downstream != nil { demand += newDemand } }
    }

    func cancel() {
      guard let downstream = lock.withLock({ self.downstream.take() }) else { return }
      withExtendedLifetime(downstream) {}
      parent?.disconnect(combineIdentifier)
    }
  }
#endif
