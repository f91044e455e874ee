// Foundation's publishers and schedulers, where Apple's Combine does not provide them.
#if !canImport(Darwin)
  import Foundation
  import KVOLiteCombine

  extension OperationQueue {
    /// A point in time on an operation queue: a `Date`, with distances in seconds (Combine's
    /// `OperationQueue.SchedulerTimeType`). As in Combine it is a type of its own, distinct from
    /// the other Foundation schedulers' time types, so that each can be given its own
    /// conformances.
    public struct SchedulerTimeType: Strideable, Codable, Hashable, Sendable {
      /// The date.
      public var date: Date

      /// The time `date`.
      public init(_ date: Date) {
        self.date = date
      }

      /// The interval from this time to `other`.
      public func distance(to other: Self) -> Stride {
        Stride(floatLiteral: other.date.timeIntervalSince(date))
      }

      /// This time moved by `n`.
      public func advanced(by n: Stride) -> Self {
        Self(date.addingTimeInterval(n.timeInterval))
      }

      /// A distance between dates, in seconds.
      public struct Stride: SchedulerTimeIntervalConvertible, Comparable, SignedNumeric,
        ExpressibleByFloatLiteral,
        Hashable, Codable, Sendable
      {
        /// The distance in seconds.
        public var magnitude: TimeInterval
        /// The distance in seconds.
        public var timeInterval: TimeInterval { magnitude }

        /// A distance of `timeInterval` seconds.
        public init(_ timeInterval: TimeInterval) { magnitude = timeInterval }
        /// An interval of `value` units.
        public init(floatLiteral value: TimeInterval) { magnitude = value }
        /// An interval of `value` units.
        public init(integerLiteral value: TimeInterval) { magnitude = value }
        /// An interval equal to `source`, or `nil` if it cannot be represented.
        public init?<T: BinaryInteger>(exactly source: T) {
          guard let value = TimeInterval(exactly: source) else { return nil }
          magnitude = value
        }

        /// Whether the left-hand side is less than the right-hand side.
        public static func < (lhs: Stride, rhs: Stride) -> Bool { lhs.magnitude < rhs.magnitude }
        /// The sum of the two.
        public static func + (lhs: Stride, rhs: Stride) -> Stride {
          Stride(lhs.magnitude + rhs.magnitude)
        }
        /// The difference of the two.
        public static func - (lhs: Stride, rhs: Stride) -> Stride {
          Stride(lhs.magnitude - rhs.magnitude)
        }
        /// The product of the two.
        public static func * (lhs: Stride, rhs: Stride) -> Stride {
          Stride(lhs.magnitude * rhs.magnitude)
        }
        /// Adds the right-hand side to the left-hand side.
        public static func += (lhs: inout Stride, rhs: Stride) { lhs = lhs + rhs }
        /// Subtracts the right-hand side from the left-hand side.
        public static func -= (lhs: inout Stride, rhs: Stride) { lhs = lhs - rhs }
        /// Multiplies the left-hand side by the right-hand side.
        public static func *= (lhs: inout Stride, rhs: Stride) { lhs = lhs * rhs }

        /// An interval of the given number of seconds.
        public static func seconds(_ s: Int) -> Stride { Stride(TimeInterval(s)) }
        /// An interval of the given number of seconds.
        public static func seconds(_ s: Double) -> Stride { Stride(s) }
        /// An interval of the given number of milliseconds.
        public static func milliseconds(_ ms: Int) -> Stride { Stride(TimeInterval(ms) / 1_000) }
        /// An interval of the given number of microseconds.
        public static func microseconds(_ us: Int) -> Stride {
          Stride(TimeInterval(us) / 1_000_000)
        }
        /// An interval of the given number of nanoseconds.
        public static func nanoseconds(_ ns: Int) -> Stride {
          Stride(TimeInterval(ns) / 1_000_000_000)
        }
      }
    }
  }
#endif
