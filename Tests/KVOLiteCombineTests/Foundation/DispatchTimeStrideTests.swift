import Dispatch
import KVOLiteCombine
import KVOLiteCombineFoundation
import Testing

/// `DispatchTime.distance(to:)` and `advanced(by:)`, which Apple's Dispatch has where Combine
/// is, and the dispatch queue scheduler's time type agrees with.
@Suite("Foundation: DispatchTime's distance and advance, as Apple's Dispatch")
struct DispatchTimeStrideTests {
  @Test("distance: signed nanoseconds, or .never when too long for an Int, either way")
  func distance() {
    let early = DispatchTime(uptimeNanoseconds: 10_000)
    let later = DispatchTime(uptimeNanoseconds: 10_431)
    #expect(early.distance(to: later) == .nanoseconds(431))
    #expect(later.distance(to: early) == .nanoseconds(-431))
    #expect(early.distance(to: early) == .nanoseconds(0))
    #expect(early.distance(to: .distantFuture) == .never)
    #expect(DispatchTime.distantFuture.distance(to: early) == .never)
    let intMax = DispatchTime(uptimeNanoseconds: UInt64(Int.max))
    #expect(early.distance(to: intMax) == .nanoseconds(.max - 10_000))
    // The scheduler's time type measures the same.
    typealias Time = DispatchQueue.SchedulerTimeType
    for (from, to) in [(early, later), (later, early), (early, .distantFuture)] {
      #expect(Time(from).distance(to: Time(to)) == .init(from.distance(to: to)))
    }
  }

  @Test("advanced: moved as Dispatch's + moves it, saturating at distantFuture")
  func advanced() {
    let early = DispatchTime(uptimeNanoseconds: 10_000)
    #expect(early.advanced(by: .nanoseconds(431)).uptimeNanoseconds == 10_431)
    #expect(early.advanced(by: .microseconds(2)).uptimeNanoseconds == 12_000)
    #expect(early.advanced(by: .nanoseconds(-500)).uptimeNanoseconds == 9_500)
    #expect(early.advanced(by: .never) == .distantFuture)
    #expect(early.advanced(by: .seconds(1)) == early + .seconds(1))
  }
}
