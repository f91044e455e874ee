// Foundation's publishers and schedulers, where Apple's Combine does not provide them.
#if !canImport(Darwin)
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

      /// The interval from this time to `other`; as in Combine, a distance too long for an
      /// `Int` of nanoseconds (to or from `distantFuture`, say) is `.nanoseconds(.max)`, in
      /// either direction.
      public func distance(to other: SchedulerTimeType) -> Stride {
        let start = dispatchTime.uptimeNanoseconds
        let end = other.dispatchTime.uptimeNanoseconds
        let (length, forward) = end >= start ? (end - start, true) : (start - end, false)
        guard length <= UInt64(Int.max) else { return .nanoseconds(.max) }
        return .nanoseconds(forward ? Int(length) : -Int(length))
      }

      /// This time moved by `n`, saturating as Dispatch does: `.nanoseconds(.max)`, or any
      /// move past the end, gives `distantFuture`; a move before the start gives the earliest
      /// time (one nanosecond).
      public func advanced(by n: Stride) -> SchedulerTimeType {
        guard n.magnitude != .max else { return SchedulerTimeType(.distantFuture) }
        let now = dispatchTime.uptimeNanoseconds
        let distance = UInt64(n.magnitude.magnitude)
        let moved: UInt64
        if n.magnitude >= 0 {
          let (sum, overflow) = now.addingReportingOverflow(distance)
          moved = overflow ? .max : sum
        } else {
          moved = now > distance ? now - distance : 1
        }
        return SchedulerTimeType(
          moved == .max ? .distantFuture : DispatchTime(uptimeNanoseconds: moved))
      }

      /// Hashes the time's raw value, as Combine does.
      public func hash(into hasher: inout Hasher) { hasher.combine(dispatchTime.rawValue) }
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
          case .seconds(let s): self = .seconds(s)
          case .milliseconds(let ms): self = .milliseconds(ms)
          case .microseconds(let us): self = .microseconds(us)
          case .nanoseconds(let ns): self = .nanoseconds(ns)
          case .never: self = .nanoseconds(.max)
          @unknown default: self = .nanoseconds(.max)
          }
        }

        /// `value` seconds.
        public init(floatLiteral value: Double) { self = .seconds(value) }
        /// `value` seconds.
        public init(integerLiteral value: Int) { self = .seconds(value) }
        /// `source` seconds, if it fits (as in Combine).
        public init?<T: BinaryInteger>(exactly source: T) {
          guard let value = Int(exactly: source) else { return nil }
          self = .seconds(value)
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
        /// The product of the two durations, in seconds, in nanoseconds (so the product of two
        /// short intervals is zero, as in Combine), saturating.
        public static func * (lhs: Stride, rhs: Stride) -> Stride {
          let product = Int128(lhs.magnitude) * Int128(rhs.magnitude) / 1_000_000_000
          return Stride(nanoseconds: Int(clamping: product))
        }
        /// Adds the right-hand side to the left-hand side.
        public static func += (lhs: inout Stride, rhs: Stride) { lhs = lhs + rhs }
        /// Subtracts the right-hand side from the left-hand side.
        public static func -= (lhs: inout Stride, rhs: Stride) { lhs = lhs - rhs }
        /// Multiplies the left-hand side by the right-hand side.
        public static func *= (lhs: inout Stride, rhs: Stride) { lhs = lhs * rhs }

        /// An interval of the given number of seconds (saturating at the longest interval).
        public static func seconds(_ s: Int) -> Stride { scaled(s, 1_000_000_000) }
        /// An interval of the given number of seconds (saturating; fractions of a nanosecond
        /// are dropped, as in Combine).
        public static func seconds(_ s: Double) -> Stride {
          let nanoseconds = s * 1_000_000_000
          if nanoseconds >= Double(Int64.max) { return Stride(nanoseconds: .max) }
          if nanoseconds <= Double(Int64.min) { return Stride(nanoseconds: .min) }
          return Stride(nanoseconds: Int(nanoseconds))
        }
        /// An interval of the given number of milliseconds (saturating).
        public static func milliseconds(_ ms: Int) -> Stride { scaled(ms, 1_000_000) }
        /// An interval of the given number of microseconds (saturating).
        public static func microseconds(_ us: Int) -> Stride { scaled(us, 1_000) }

        /// `value` units of `unit` nanoseconds, saturating.
        private static func scaled(_ value: Int, _ unit: Int) -> Stride {
          let (product, overflow) = value.multipliedReportingOverflow(by: unit)
          return Stride(nanoseconds: overflow ? (value < 0 ? .min : .max) : product)
        }

        private enum CodingKeys: String, CodingKey {
          case nanoseconds = "_nanoseconds"
        }

        /// Encodes the interval as Combine does: `{"_nanoseconds": n}`.
        public func encode(to encoder: any Encoder) throws {
          var container = encoder.container(keyedBy: CodingKeys.self)
          try container.encode(Int64(magnitude), forKey: .nanoseconds)
        }

        /// Decodes an interval encoded by ``encode(to:)``.
        public init(from decoder: any Decoder) throws {
          let container = try decoder.container(keyedBy: CodingKeys.self)
          magnitude = Int(try container.decode(Int64.self, forKey: .nanoseconds))
        }

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
