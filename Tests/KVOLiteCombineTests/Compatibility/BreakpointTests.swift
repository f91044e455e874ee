import Foundation
import KVOLiteCombine
import KVOLiteTestSupport
import Testing

private struct Failed: Error, Equatable {}

@Suite("breakpoint, breakpointOnError and MergeMany.merge(with:)")
struct BreakpointTests {
  @Test(
    "breakpoint passes upstream's subscription and every event through when no closure says stop")
  func passesThrough() {
    let subject = PassthroughSubject<Int, Failed>()
    var checked: [String] = []
    var received: [String] = []
    var subscriptionName = ""
    let subscriber = AnySubscriber<Int, Failed>(
      receiveSubscription: { subscription in
        subscriptionName = String(describing: subscription)
        subscription.request(.unlimited)
      },
      receiveValue: { value in
        received.append("\(value)")
        return .none
      },
      receiveCompletion: { completion in received.append("\(completion)") })
    subject.breakpoint(
      receiveSubscription: { _ in
        checked.append("subscription")
        return false
      },
      receiveOutput: { value in
        checked.append("value \(value)")
        return false
      },
      receiveCompletion: { _ in
        checked.append("completion")
        return false
      }
    ).subscribe(subscriber)
    subject.send(1)
    subject.send(2)
    subject.send(completion: .finished)
    #expect(subscriptionName == "PassthroughSubject")
    #expect(checked == ["subscription", "value 1", "value 2", "completion"])
    #expect(received == ["1", "2", "finished"])
  }

  @Test("breakpointOnError lets a publisher that finishes run to the end")
  func onErrorFinishes() {
    var received: [Int] = []
    var finished = false
    _ = [1, 2].publisher.setFailureType(to: Failed.self).breakpointOnError().sink(
      receiveCompletion: { finished = $0 == .finished },
      receiveValue: { received.append($0) })
    #expect(received == [1, 2] && finished)
  }

  @Test("a closure that returns true raises SIGTRAP, which ends a process with no debugger")
  func stops() async {
    await #expect(processExitsWith: .signal(SIGTRAP)) {
      _ = Just(1).breakpoint(receiveOutput: { $0 == 1 }).sink { _ in }
    }
    await #expect(processExitsWith: .signal(SIGTRAP)) {
      _ = Fail<Int, Failed>(error: Failed()).breakpointOnError().sink(
        receiveCompletion: { _ in }, receiveValue: { _ in })
    }
  }

  @Test(
    "with no debugger, SIGTRAP ends the process even where a handler intercepts it and returns (Swift's backtracer does on Linux)"
  )
  func stopsPastAHandler() async {
    await #expect(processExitsWith: .signal(SIGTRAP)) {
      signal(SIGTRAP) { _ in }
      _ = Just(1).breakpoint(receiveOutput: { $0 == 1 }).sink { _ in }
    }
  }

  @Test("MergeMany.merge(with:) adds a publisher and stays a MergeMany")
  func mergeManyWith() {
    let merged: Publishers.MergeMany<Just<Int>> = Publishers.MergeMany(Just(1), Just(2))
      .merge(with: Just(3))
    var received: [Int] = []
    _ = merged.sink { received.append($0) }
    #expect(merged.publishers.count == 3)
    #expect(received == [1, 2, 3])
  }
}
