import Combine

// Backfills of API that Apple added to Combine after its first release, declared as libraries
// written for that release declare them (CombineExt's `Optional.publisher`, with its
// availability; the others with Apple's signatures): on Apple's platforms Apple's own member
// takes over where the backfill is obsoleted. Where KVOLite provides Combine, no such version
// applies, and both are visible: the code must still compile and call the library's (KVOLite's
// are disfavored overloads). Each backfill counts its calls, so that the port checks which ran.

/// How many times each backfill below was called.
public enum BackfillCalls {
  /// The calls, by backfill name (the port runs on one thread).
  nonisolated(unsafe) public static var counts: [String: Int] = [:]

  static func record(_ name: String) { counts[name, default: 0] += 1 }
}

@available(OSX 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
extension Optional {
  /// A publisher of this optional's value, if it has one (a backfill, as CombineExt's).
  @available(OSX, obsoleted: 11.0, message: "Optional.publisher is now part of Combine.")
  @available(iOS, obsoleted: 14.0, message: "Optional.publisher is now part of Combine.")
  @available(tvOS, obsoleted: 14.0, message: "Optional.publisher is now part of Combine.")
  @available(watchOS, obsoleted: 7.0, message: "Optional.publisher is now part of Combine.")
  public var publisher: Optional.Publisher {
    BackfillCalls.record("Optional.publisher")
    return Optional.Publisher(self)
  }
}

extension Publisher where Failure == Never {
  /// Republishes into a `@Published` property (a backfill: it only records that it ran, as a
  /// library could not reach the property's storage through its publisher).
  @available(OSX, obsoleted: 11.0)
  @available(iOS, obsoleted: 14.0)
  public func assign(to published: inout Published<Output>.Publisher) {
    BackfillCalls.record("assign(to:)")
  }

  /// `flatMap` whose children can fail while this publisher cannot (a backfill).
  @available(OSX, obsoleted: 11.0)
  @available(iOS, obsoleted: 14.0)
  public func flatMap<P: Publisher>(
    maxPublishers: Subscribers.Demand = .unlimited, _ transform: @escaping (Output) -> P
  ) -> Publishers.FlatMap<P, Publishers.SetFailureType<Self, P.Failure>> {
    BackfillCalls.record("flatMap")
    return setFailureType(to: P.Failure.self).flatMap(maxPublishers: maxPublishers, transform)
  }
}

extension Publisher where Output: Publisher, Failure == Never {
  /// `switchToLatest` whose inner publishers can fail while this publisher cannot (a backfill).
  @available(OSX, obsoleted: 11.0)
  @available(iOS, obsoleted: 14.0)
  public func switchToLatest()
    -> Publishers.SwitchToLatest<Output, Publishers.SetFailureType<Self, Output.Failure>>
  {
    BackfillCalls.record("switchToLatest")
    return setFailureType(to: Output.Failure.self).switchToLatest()
  }
}

extension Publisher where Failure == Never {
  /// This publisher's values as an `AsyncStream` (a backfill, as the libraries that bring
  /// `values` to older systems declare it).
  @available(OSX, obsoleted: 12.0)
  @available(iOS, obsoleted: 15.0)
  public var values: AsyncStream<Output> {
    BackfillCalls.record("values")
    return AsyncStream { continuation in
      let cancellable = sink(
        receiveCompletion: { _ in continuation.finish() },
        receiveValue: { value in
          // The backfill hands values over as they come (it does not require `Sendable`).
          nonisolated(unsafe) let value = value
          continuation.yield(value)
        })
      continuation.onTermination = { _ in cancellable.cancel() }
    }
  }
}

extension Future where Failure == Never {
  /// The future's value, once its promise has been called (a backfill).
  @available(OSX, obsoleted: 12.0)
  @available(iOS, obsoleted: 15.0)
  public var value: Output {
    get async {
      BackfillCalls.record("Future.value")
      let box = FutureValueBox<Output>()
      return await withCheckedContinuation { continuation in
        box.cancellable = sink { continuation.resume(returning: UnsafeTransfer($0)) }
      }.value
    }
  }
}

/// Keeps the subscription of the `Future.value` backfill until the value arrives.
private final class FutureValueBox<Output>: @unchecked Sendable {
  var cancellable: AnyCancellable?
}

/// A value handed across the continuation (the backfill does not require `Sendable`).
private struct UnsafeTransfer<Value>: @unchecked Sendable {
  let value: Value
  init(_ value: Value) { self.value = value }
}

#if os(Linux)
  import Dispatch

  extension DispatchTime {
    /// The interval to `other` (a backfill, as libraries ported to Linux declare it: Apple's
    /// Dispatch has it where Combine is, Linux's does not).
    public func distance(to other: DispatchTime) -> DispatchTimeInterval {
      BackfillCalls.record("DispatchTime.distance(to:)")
      return .nanoseconds(Int(other.uptimeNanoseconds) - Int(uptimeNanoseconds))
    }
  }
#endif

/// The backfills used inside the library that declares them: what each gave.
public func usesOfBackfills() async -> [String] {
  var seen: [String] = []
  _ = Optional(1).publisher.sink { seen.append("optional \($0)") }
  let outer = PassthroughSubject<PassthroughSubject<Int, BackfillError>, Never>()
  let inner = PassthroughSubject<Int, BackfillError>()
  let switched = outer.switchToLatest().sink(
    receiveCompletion: { _ in }, receiveValue: { seen.append("switched \($0)") })
  outer.send(inner)
  inner.send(2)
  let flat = Just(3).flatMap { Fail<Int, BackfillError>(error: BackfillError()).prepend($0) }
    .sink(
      receiveCompletion: { seen.append("flat \($0)") },
      receiveValue: { seen.append("flat \($0)") })
  for await value in [4].publisher.values { seen.append("values \(value)") }
  seen.append("future \(await Future<Int, Never> { $0(.success(5)) }.value)")
  withExtendedLifetime((switched, flat)) {}
  return seen
}

/// The failure of the publishers the backfills are tried with.
public struct BackfillError: Error, Equatable {
  /// The error.
  public init() {}
}
