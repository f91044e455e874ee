// Foundation's publishers and schedulers, where Apple's Combine does not provide them.
#if !canImport(Darwin)
  import Dispatch

  // Apple's Dispatch, where Combine is, gives `DispatchTime` the members of `Strideable` (not
  // the conformance), with `DispatchTimeInterval` as its stride; the dispatch queue scheduler's
  // time type measures and moves with them. Linux's Dispatch lacks them. They are disfavored
  // overloads, as the other members Apple added after Combine's first release are here (see
  // the Combine compatibility article): code written for Linux that declares its own, as many
  // libraries do, calls its own, and Dispatch's would win if it gained them.
  extension DispatchTime {
    /// The interval from this time to `other`, in nanoseconds; `.never` when it does not fit
    /// an `Int` of nanoseconds, in either direction (to or from `distantFuture`, say).
    @_disfavoredOverload
    public func distance(to other: DispatchTime) -> DispatchTimeInterval {
      let start = uptimeNanoseconds
      let end = other.uptimeNanoseconds
      let length = end >= start ? end - start : start - end
      guard length <= UInt64(Int.max) else { return .never }
      return .nanoseconds(end >= start ? Int(length) : -Int(length))
    }

    /// This time moved by `n`, as Dispatch's `+` moves it (saturating at `distantFuture`).
    @_disfavoredOverload
    public func advanced(by n: DispatchTimeInterval) -> DispatchTime {
      self + n
    }
  }
#endif
