import Dispatch
import Foundation
import KVOLiteCombine
import KVOLiteCombineFoundation
import KVOLiteTestSupport
import Testing

/// The schedulers' time types and the Foundation schedulers, as Combine's (OpenCombine's
/// compatibility tests record them).
@Suite("Foundation: scheduler time types, OperationQueue, Timer")
struct SchedulerTimeTests {
  typealias Time = DispatchQueue.SchedulerTimeType
  typealias Stride = DispatchQueue.SchedulerTimeType.Stride

  @Test("dispatch time saturates: distances too long are .max, advancing stops at the ends")
  func dispatchTime() {
    let early = Time(DispatchTime(uptimeNanoseconds: 10_000))
    let later = Time(DispatchTime(uptimeNanoseconds: 10_431))
    let distantFuture = Time(.distantFuture)
    let nearlyDistant = Time(
      DispatchTime(uptimeNanoseconds: DispatchTime.distantFuture.uptimeNanoseconds - 1_024))
    let intMax = Time(DispatchTime(uptimeNanoseconds: UInt64(Int.max)))
    #expect(early.distance(to: later) == .nanoseconds(431))
    #expect(later.distance(to: early) == .nanoseconds(-431))
    for far in [distantFuture, nearlyDistant] {
      #expect(early.distance(to: far) == .nanoseconds(.max))
      #expect(far.distance(to: early) == .nanoseconds(.max))
      #expect(far.distance(to: far) == .nanoseconds(0))
    }
    #expect(early.distance(to: intMax) == .nanoseconds(.max - 10_000))
    #expect(intMax.distance(to: early) == .nanoseconds(-(.max - 10_000)))
    #expect(early.advanced(by: .nanoseconds(431)) == later)
    #expect(early.advanced(by: .nanoseconds(-220)).dispatchTime.uptimeNanoseconds == 9_780)
    #expect(early.advanced(by: .nanoseconds(.max)).dispatchTime == .distantFuture)
    let start = Time(DispatchTime(uptimeNanoseconds: 1))
    #expect(start.advanced(by: .nanoseconds(-1_000)).dispatchTime.uptimeNanoseconds == 1)
  }

  @Test("dispatch strides saturate, literals and exact integers are seconds, products of seconds")
  func dispatchStride() throws {
    #expect(Stride.seconds(Int.max).magnitude == .max)
    #expect(Stride.seconds(Int.min).magnitude == .min)
    #expect(Stride.milliseconds(.max).magnitude == .max)
    #expect(Stride.microseconds(.max).magnitude == .max)
    #expect(Stride.seconds(Double.greatestFiniteMagnitude).magnitude == .max)
    #expect(
      Stride.seconds(Double(Int.max) / 1_000_000_000 - 1).magnitude == 9_223_372_035_854_776_320)
    #expect(Stride(.seconds(.max)).magnitude == .max && Stride(.never).magnitude == .max)
    #expect(Stride(exactly: 2 as UInt64)?.magnitude == 2_000_000_000)
    #expect(Stride(exactly: UInt64.max) == nil)
    #expect((1.2 as Stride).magnitude == 1_200_000_000)
    // A product is of two durations: short ones make nothing, long ones saturate.
    #expect((Stride.nanoseconds(15) * .nanoseconds(2)).magnitude == 0)
    #expect((Stride.microseconds(-3) * .nanoseconds(10)).magnitude == 0)
    #expect((Stride.seconds(2) * .seconds(3)).magnitude == 6_000_000_000)
    #expect((Stride.seconds(Int.max) * .seconds(2)).magnitude == .max)
    let json = String(
      decoding: try JSONEncoder().encode(Stride.nanoseconds(419_872)), as: UTF8.self)
    #expect(json == #"{"_nanoseconds":419872}"#)
    #expect(try JSONDecoder().decode(Stride.self, from: Data(json.utf8)) == .nanoseconds(419_872))
  }

  @Test("ImmediateScheduler's strides made from units are zero; it repeats once, returning Empty")
  func immediate() {
    typealias Immediate = ImmediateScheduler.SchedulerTimeType.Stride
    #expect(Immediate.seconds(1.2) == 0 && Immediate.seconds(1_100) == 0)
    #expect(Immediate.milliseconds(123) == 0 && Immediate.microseconds(51) == 0)
    #expect(Immediate.nanoseconds(23) == 0 && Immediate(14) == 14)
    var fired = 0
    let cancellable = ImmediateScheduler.shared.schedule(
      after: ImmediateScheduler.shared.now, interval: 10
    ) { fired += 1 }
    #expect(fired == 1 && String(describing: cancellable) == "Empty")
  }

  static func kind(_ time: RunLoop.SchedulerTimeType) -> String { "run loop" }
  static func kind(_ time: OperationQueue.SchedulerTimeType) -> String { "operation queue" }

  @Test("RunLoop and OperationQueue each have a time type of their own, coded as Combine's")
  func dateTimes() throws {
    let date = Date(timeIntervalSinceReferenceDate: 1024.75)
    #expect(
      ObjectIdentifier(RunLoop.SchedulerTimeType.self)
        != ObjectIdentifier(OperationQueue.SchedulerTimeType.self))
    #expect(Self.kind(RunLoop.SchedulerTimeType(date)) == "run loop")
    #expect(Self.kind(OperationQueue.SchedulerTimeType(date)) == "operation queue")
    let time = String(
      decoding: try JSONEncoder().encode(RunLoop.SchedulerTimeType(date)), as: UTF8.self)
    #expect(time == #"{"date":1024.75}"#)
    let stride = OperationQueue.SchedulerTimeType.Stride.seconds(1024.5)
    #expect(
      String(decoding: try JSONEncoder().encode(stride), as: UTF8.self) == #"{"magnitude":1024.5}"#)
    #expect(
      (RunLoop.SchedulerTimeType.Stride.microseconds(-3) * .nanoseconds(10)).magnitude == -3E-14)
  }

  @Test(
    "RunLoop's and OperationQueue's time types are distinct non-generic types, each with conformances of its own"
  )
  func distinctTimeTypes() {
    let date = Date(timeIntervalSinceReferenceDate: 8)
    #expect(String(describing: RunLoop.SchedulerTimeType.self) == "SchedulerTimeType")
    #expect(String(describing: OperationQueue.SchedulerTimeType.Stride.self) == "Stride")
    #expect(RunLoop.SchedulerTimeType(date).schedulerName == "RunLoop")
    #expect(OperationQueue.SchedulerTimeType(date).schedulerName == "OperationQueue")
    #expect(RunLoop.SchedulerTimeType.Stride(2).schedulerName == "RunLoop")
    #expect(OperationQueue.SchedulerTimeType.Stride(2).schedulerName == "OperationQueue")
  }

  /// An operation queue that records the operations added to it.
  final class RecordingQueue: OperationQueue, @unchecked Sendable {
    let added = Locked<[Operation]>([])
    override func addOperation(_ operation: Operation) {
      added.withLock { $0.append(operation) }
      super.addOperation(operation)
    }
  }

  @Test("OperationQueue: a BlockOperation now; a not-yet-ready operation for later, run once")
  func operationQueueOnce() {
    let queue = RecordingQueue()
    let ran = Counter()
    queue.schedule { ran.increment() }
    queue.waitUntilAllOperationsAreFinished()
    #expect(queue.added.withLock { $0.count } == 1)
    #expect(queue.added.withLock { $0.first } is BlockOperation && ran.count == 1)

    queue.schedule(after: queue.now.advanced(by: 0.1)) { ran.increment() }
    let delayed = queue.added.withLock { $0.last! }
    #expect(!(delayed is BlockOperation) && delayed is any Cancellable)
    #expect(!delayed.isReady && !delayed.isFinished && !delayed.isCancelled)
    queue.waitUntilAllOperationsAreFinished()
    #expect(ran.count == 2)
    delayed.main()
    #expect(ran.count == 2 && queue.added.withLock { $0.count } == 2)
  }

  @Test("OperationQueue: a repeating schedule adds one operation per tick until cancelled")
  func operationQueueRepeating() {
    let queue = RecordingQueue()
    let ticks = DispatchSemaphore(value: 0)
    let ran = Counter()
    let cancellable = queue.schedule(after: queue.now.advanced(by: 0.02), interval: 0.02) {
      ran.increment()
      ticks.signal()
    }
    for _ in 0..<3 { #expect(ticks.wait(timeout: .now() + 10) == .success) }
    cancellable.cancel()
    queue.waitUntilAllOperationsAreFinished()
    let count = ran.count
    #expect(count >= 3)
    // One operation per tick, and the one waiting for the next tick if it was added before
    // the cancel.
    #expect([count, count + 1].contains(queue.added.withLock { $0.count }))
    #expect(queue.added.withLock { $0.allSatisfy { !($0 is BlockOperation) } })
  }

  @Test("Timer.publish drops the tolerance; a connection first fires one interval later")
  func timer() {
    let publisher = Timer.publish(every: 0.25, tolerance: 0.02, on: .current, in: .default)
    #expect(publisher.tolerance == nil && publisher.interval == 0.25)
    var dates: [Date] = []
    let cancellable = Timer.publish(every: 0.2, on: .current, in: .default).autoconnect().sink {
      dates.append($0)
    }
    let connected = Date()
    let deadline = Date().addingTimeInterval(30)
    while dates.isEmpty, Date() < deadline {
      _ = RunLoop.current.run(mode: .default, before: Date().addingTimeInterval(0.05))
    }
    cancellable.cancel()
    #expect(dates.count == 1)
    #expect(dates.first.map { $0.timeIntervalSince(connected) >= 0.15 } == true)
  }
}

/// A conformance given to each scheduler's time type separately, as code written for Apple's
/// Foundation may do (it did not compile when both were one generic type).
protocol NamedSchedulerTime {
  var schedulerName: String { get }
}

extension RunLoop.SchedulerTimeType: NamedSchedulerTime {
  var schedulerName: String { "RunLoop" }
}

extension OperationQueue.SchedulerTimeType: NamedSchedulerTime {
  var schedulerName: String { "OperationQueue" }
}

extension RunLoop.SchedulerTimeType.Stride: NamedSchedulerTime {
  var schedulerName: String { "RunLoop" }
}

extension OperationQueue.SchedulerTimeType.Stride: NamedSchedulerTime {
  var schedulerName: String { "OperationQueue" }
}
