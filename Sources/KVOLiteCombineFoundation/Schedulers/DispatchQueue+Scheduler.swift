// Foundation's publishers and schedulers, where Apple's Combine does not provide them.
#if !canImport(Combine)
  import Dispatch
  import KVOLiteCombine

  extension DispatchQueue: Scheduler {
    /// A point in time on a dispatch queue: a `DispatchTime`.
    public struct SchedulerTimeType: Strideable, Codable, Hashable, Sendable {
      /// The time.
      public var dispatchTime: DispatchTime

      /// The time `time`.
      public init(_ time: DispatchTime) {
        dispatchTime = time
      }

      /// The interval from this time to `other`.
      public func distance(to other: SchedulerTimeType) -> Stride {
        let start = dispatchTime.uptimeNanoseconds
        let end = other.dispatchTime.uptimeNanoseconds
        return end >= start
          ? .nanoseconds(Int(clamping: end - start)) : .nanoseconds(-Int(clamping: start - end))
      }

      /// This time moved by `n`.
      public func advanced(by n: Stride) -> SchedulerTimeType {
        let now = dispatchTime.uptimeNanoseconds
        let moved =
          n.magnitude >= 0
          ? now.addingReportingOverflow(UInt64(n.magnitude)).partialValue
          : now - Swift.min(now, UInt64(-n.magnitude))
        return SchedulerTimeType(DispatchTime(uptimeNanoseconds: moved))
      }

      /// Hashes what `==` compares.
      public func hash(into hasher: inout Hasher) { hasher.combine(dispatchTime.uptimeNanoseconds) }
      /// Whether the two are equal.
      public static func == (lhs: SchedulerTimeType, rhs: SchedulerTimeType) -> Bool {
        lhs.dispatchTime.uptimeNanoseconds == rhs.dispatchTime.uptimeNanoseconds
      }

      /// Encodes the time as its uptime in nanoseconds.
      public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(dispatchTime.uptimeNanoseconds)
      }

      /// Decodes a time encoded by ``encode(to:)``.
      public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        dispatchTime = DispatchTime(uptimeNanoseconds: try container.decode(UInt64.self))
      }

      /// A distance between dispatch times, in nanoseconds. Literals are seconds.
      public struct Stride: SchedulerTimeIntervalConvertible, Comparable, SignedNumeric,
        ExpressibleByFloatLiteral,
        Hashable, Codable, Sendable
      {
        /// The distance in nanoseconds.
        public var magnitude: Int

        /// The distance as a `DispatchTimeInterval`.
        public var timeInterval: DispatchTimeInterval { .nanoseconds(magnitude) }

        /// The distance `timeInterval` (`.never` is the longest distance).
        public init(_ timeInterval: DispatchTimeInterval) {
          switch timeInterval {
          case .seconds(let s):
            magnitude = s.multipliedReportingOverflow(by: 1_000_000_000).partialValue
          case .milliseconds(let ms):
            magnitude = ms.multipliedReportingOverflow(by: 1_000_000).partialValue
          case .microseconds(let us):
            magnitude = us.multipliedReportingOverflow(by: 1_000).partialValue
          case .nanoseconds(let ns): magnitude = ns
          case .never: magnitude = .max
          @unknown default: magnitude = .max
          }
        }

        /// `value` seconds.
        public init(floatLiteral value: Double) { self = .seconds(value) }
        /// `value` seconds.
        public init(integerLiteral value: Int) { self = .seconds(value) }
        /// `source` nanoseconds, if it fits.
        public init?<T: BinaryInteger>(exactly source: T) {
          guard let value = Int(exactly: source) else { return nil }
          magnitude = value
        }

        private init(nanoseconds: Int) { magnitude = nanoseconds }

        /// Whether the left-hand side is less than the right-hand side.
        public static func < (lhs: Stride, rhs: Stride) -> Bool { lhs.magnitude < rhs.magnitude }
        /// The sum of the two.
        public static func + (lhs: Stride, rhs: Stride) -> Stride {
          Stride(nanoseconds: lhs.magnitude + rhs.magnitude)
        }
        /// The difference of the two.
        public static func - (lhs: Stride, rhs: Stride) -> Stride {
          Stride(nanoseconds: lhs.magnitude - rhs.magnitude)
        }
        /// The product of the two.
        public static func * (lhs: Stride, rhs: Stride) -> Stride {
          Stride(nanoseconds: lhs.magnitude * rhs.magnitude)
        }
        /// Adds the right-hand side to the left-hand side.
        public static func += (lhs: inout Stride, rhs: Stride) { lhs = lhs + rhs }
        /// Subtracts the right-hand side from the left-hand side.
        public static func -= (lhs: inout Stride, rhs: Stride) { lhs = lhs - rhs }
        /// Multiplies the left-hand side by the right-hand side.
        public static func *= (lhs: inout Stride, rhs: Stride) { lhs = lhs * rhs }

        /// An interval of the given number of seconds.
        public static func seconds(_ s: Int) -> Stride { Stride(.seconds(s)) }
        /// An interval of the given number of seconds.
        public static func seconds(_ s: Double) -> Stride {
          Stride(
            nanoseconds: Int(
              clamping: Int64(exactly: (s * 1_000_000_000).rounded()) ?? (s < 0 ? .min : .max)))
        }
        /// An interval of the given number of milliseconds.
        public static func milliseconds(_ ms: Int) -> Stride { Stride(.milliseconds(ms)) }
        /// An interval of the given number of microseconds.
        public static func microseconds(_ us: Int) -> Stride { Stride(.microseconds(us)) }
        /// An interval of the given number of nanoseconds.
        public static func nanoseconds(_ ns: Int) -> Stride { Stride(nanoseconds: ns) }
      }
    }

    /// How actions are submitted to a dispatch queue.
    public struct SchedulerOptions {
      /// The quality of service.
      public var qos: DispatchQoS
      /// The work item flags.
      public var flags: DispatchWorkItemFlags
      /// A group the work joins.
      public var group: DispatchGroup?

      /// Options with the given quality of service, flags and group.
      public init(
        qos: DispatchQoS = .unspecified, flags: DispatchWorkItemFlags = [],
        group: DispatchGroup? = nil
      ) {
        self.qos = qos
        self.flags = flags
        self.group = group
      }
    }

    /// Now, by the system's uptime clock.
    public var now: SchedulerTimeType { SchedulerTimeType(.now()) }
    /// Zero.
    public var minimumTolerance: SchedulerTimeType.Stride { .nanoseconds(0) }

    /// Submits `action` asynchronously.
    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
      let work = UncheckedSendable(action)
      let options = options ?? SchedulerOptions()
      async(group: options.group, qos: options.qos, flags: options.flags) { work.value() }
    }

    /// Submits `action` to run at `date`.
    public func schedule(
      after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride,
      options: SchedulerOptions?,
      _ action: @escaping () -> Void
    ) {
      let work = UncheckedSendable(action)
      let options = options ?? SchedulerOptions()
      asyncAfter(deadline: date.dispatchTime, qos: options.qos, flags: options.flags) {
        work.value()
      }
    }

    /// Runs `action` at `date` and every `interval` after, on a timer of this queue, until the
    /// result is cancelled.
    public func schedule(
      after date: SchedulerTimeType, interval: SchedulerTimeType.Stride,
      tolerance: SchedulerTimeType.Stride,
      options: SchedulerOptions?, _ action: @escaping () -> Void
    ) -> any Cancellable {
      let timer = DispatchSource.makeTimerSource(queue: self)
      let work = UncheckedSendable(action)
      timer.setEventHandler { work.value() }
      timer.schedule(
        deadline: date.dispatchTime, repeating: interval.timeInterval,
        leeway: tolerance.timeInterval)
      timer.resume()
      let source = UncheckedSendable(timer)
      return AnyCancellable { source.value.cancel() }
    }
  }
#endif
