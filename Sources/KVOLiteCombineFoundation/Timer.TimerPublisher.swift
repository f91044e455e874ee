// Foundation's publishers and schedulers, where Apple's Combine does not provide them.
#if !canImport(Combine)
  import Foundation
  import KVOLiteCombine

  extension Timer {
    /// A connectable publisher of the date every `interval`, on a run loop: Foundation's
    /// `Timer.TimerPublisher`, on Linux too.
    ///
    /// ``connect()`` schedules a repeating timer on the run loop in the mode (the run loop must
    /// run for it to fire); cancelling the connection invalidates it. Each subscriber gets the
    /// dates fired while it has demand; others are dropped. Use ``ConnectablePublisher/autoconnect()``
    /// to connect with the first subscriber. Thread-safe.
    public final class TimerPublisher: ConnectablePublisher, @unchecked Sendable {
      // @unchecked: the run loop and mode are only handed to the timer; `subject` is thread-safe.
      /// The kind of values this publisher publishes.
      public typealias Output = Date
      /// The kind of errors this publisher might publish.
      public typealias Failure = Never

      /// The time between dates.
      public let interval: TimeInterval
      /// The tolerance allowed the timer.
      public let tolerance: TimeInterval?
      /// The run loop the timer is scheduled on.
      public let runLoop: RunLoop
      /// The run loop mode.
      public let mode: RunLoop.Mode
      /// Scheduling options (none yet).
      public let options: RunLoop.SchedulerOptions?

      private let subject = PassthroughSubject<Date, Never>()

      /// A timer publisher; see ``Timer/publish(every:tolerance:on:in:options:)``.
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
        subject.subscribe(subscriber)
      }

      /// Starts the timer; cancelling the result stops it.
      public func connect() -> any Cancellable {
        let subject = self.subject
        let timer = Timer(timeInterval: interval, repeats: true) { _ in subject.send(Date()) }
        if let tolerance { timer.tolerance = tolerance }
        runLoop.add(timer, forMode: mode)
        let handle = UncheckedSendable(timer)
        return AnyCancellable { handle.value.invalidate() }
      }
    }

    /// A publisher of the date every `interval` on `runLoop` in `mode`, once connected.
    ///
    ///     Timer.publish(every: 1, on: .main, in: .common).autoconnect().sink { tick($0) }
    public static func publish(
      every interval: TimeInterval, tolerance: TimeInterval? = nil, on runLoop: RunLoop,
      in mode: RunLoop.Mode,
      options: RunLoop.SchedulerOptions? = nil
    ) -> TimerPublisher {
      TimerPublisher(
        interval: interval, tolerance: tolerance, runLoop: runLoop, mode: mode, options: options)
    }
  }
#endif
