import Foundation
import KVOLiteBridge
import KVOLiteTestSupport
import Synchronization
import Testing

/// A view model whose binding is set from outside, so that a test can cancel it from anywhere.
private final class NameViewModel: ObservableObject, @unchecked Sendable {
  @Published var name = ""
  var binding: AnyCancellable?
}

/// A model whose key `gated` is the name, set through a hook that runs first: a test stops a
/// binding's write there, half-way through a crossing.
private final class GatedContact: KeyValueObservable, @unchecked Sendable {
  let observationRegistrar = ObservationRegistrar()
  static let observableKeys: ObservableKeys<GatedContact> = [
    .attribute("name", \.name),
    .derived("gated", \.gated, affectedBy: ["name"]),
  ]
  @Observed var name = ""
  /// Set before the threads start; called on each set of `gated`.
  nonisolated(unsafe) var beforeSet: @Sendable (String) -> Void = { _ in }

  var gated: String {
    get { name }
    set {
      beforeSet(newValue)
      name = newValue
    }
  }
}

/// ``TwoWayBinding`` with both sides written from several threads: it never deadlocks, the two
/// sides end equal, and nothing crosses after `cancel()` returns.
@Suite("Two-way binding under concurrency")
struct TwoWayBindingConcurrencyTests {
  enum Subscriber: CaseIterable, Sendable {
    case property, objectWillChange
  }

  @Test(
    "a subscriber of the view model that cancels while another thread sets the model does not deadlock",
    arguments: Subscriber.allCases)
  func cancelFromSubscriber(_ subscriber: Subscriber) {
    let person = Person()
    let viewModel = NameViewModel()
    let stopping = Flag()
    let insideSubscriber = Flag()
    let modelDelivering = Flag()
    let cancelled = Flag()
    // Registered before the binding: runs first in the model's delivery, on the thread that set
    // "m", and tells the other thread that this delivery is in flight.
    let first = person.observe(\.firstName, options: [.new]) { _, change in
      if change.newValue == "m" { modelDelivering.set() }
    }
    viewModel.binding = TwoWayBinding.bind(
      \.firstName, of: person, to: \.name, publishedBy: \.$name, on: viewModel)
    let stop: @Sendable () -> Void = {
      guard stopping.isSet, !insideSubscriber.isSet else { return }
      insideSubscriber.set()
      // The other thread's delivery is in flight: its crossing waits for this subscriber to
      // return. Cancelling here must not wait for it.
      while !modelDelivering.isSet {}
      viewModel.binding?.cancel()
      cancelled.set()
    }
    let cancellable =
      switch subscriber {
      case .property: viewModel.$name.sink { if $0 == "stop" { stop() } }
      case .objectWillChange: viewModel.objectWillChange.sink { stop() }
      }
    let finished = finishes {
      race(workers: 2) { worker in
        if worker == 0 {
          while !insideSubscriber.isSet {}
          person.firstName = "m"
        } else {
          stopping.set()
          viewModel.name = "stop"
        }
      }
    }
    #expect(finished, "deadlocked")
    // Releasing what the stuck threads use would wait for them too.
    guard finished else { return abandon(person, viewModel, first, cancellable) }
    #expect(cancelled.isSet)
    // The binding is over: neither side reaches the other any more.
    person.firstName = "model after"
    #expect(viewModel.name != "model after")
    viewModel.name = "view model after"
    #expect(person.firstName == "model after")
    #expect(person.observationRegistrar.triggerCount == 1)
    _ = (first, cancellable)
  }

  @Test(
    "two sets of the model delivered in the other order than they were stored: the view model ends with the last one"
  )
  func modelSetsDeliveredOutOfOrder() {
    let person = Person(firstName: "start")
    let viewModel = NameViewModel()
    let firstStored = Flag()
    let secondDone = Flag()
    // Registered before the binding: holds the delivery of "a" (stored first) until "b" (stored
    // second) has been delivered completely.
    let slow = person.observe(\.firstName, options: [.new]) { _, change in
      guard change.newValue == "a" else { return }
      firstStored.set()
      while !secondDone.isSet {}
    }
    viewModel.binding = TwoWayBinding.bind(
      \.firstName, of: person, to: \.name, publishedBy: \.$name, on: viewModel)
    race(workers: 2) { worker in
      if worker == 0 {
        person.firstName = "a"
      } else {
        while !firstStored.isSet {}
        person.firstName = "b"
        secondDone.set()
      }
    }
    #expect(person.firstName == "b")
    #expect(viewModel.name == "b")
    _ = slow
  }

  @Test("after writers on both sides stop, both sides hold the model's last stored value")
  func sidesConverge() {
    var disagreements: [String] = []
    for round in 0..<100 {
      let person = Person(firstName: "start")
      let viewModel = NameViewModel()
      // A slow observer before the binding widens the window between a set's store and its
      // delivery.
      let slow = person.observe(\.firstName, options: [.new]) { _, change in
        spin(Int(UInt(bitPattern: change.newValue.hashValue) % 2_000))
      }
      viewModel.binding = TwoWayBinding.bind(
        \.firstName, of: person, to: \.name, publishedBy: \.$name, on: viewModel)
      race(workers: 3) { worker in
        for index in 0..<100 {
          if worker < 2 {
            person.firstName = "model \(worker) \(index)"
          } else {
            viewModel.name = "view model \(index)"
          }
        }
      }
      if viewModel.name != person.firstName {
        disagreements.append("round \(round): \(person.firstName) / \(viewModel.name)")
      }
      _ = slow
    }
    #expect(disagreements == [])
  }

  @Test("nothing crosses from the view model to the model after cancel() returns")
  func nothingCrossesAfterCancel() {
    var late = 0
    for _ in 0..<20 {
      let contact = GatedContact()
      let viewModel = NameViewModel()
      viewModel.binding = TwoWayBinding.bind(
        \.gated, of: contact, to: \.name, publishedBy: \.$name, on: viewModel)
      let crossing = Flag()
      let cancelling = Flag()
      let cancelReturned = Flag()
      let crossedLate = Flag()
      contact.beforeSet = { _ in
        crossing.set()
        while !cancelling.isSet {}
        // Give cancel() time to return, if it does not wait for this crossing.
        var spins = 0
        while !cancelReturned.isSet, spins < 20_000_000 { spins = increment(spins) }
        if cancelReturned.isSet { crossedLate.set() }
      }
      race(workers: 2) { worker in
        if worker == 0 {
          viewModel.name = "x"
        } else {
          while !crossing.isSet {}
          cancelling.set()
          viewModel.binding?.cancel()
          cancelReturned.set()
        }
      }
      if crossedLate.isSet { late += 1 }
    }
    #expect(late == 0)
  }
}

/// Runs `body` on another thread and tells whether it finished within a minute: a test of a
/// deadlock fails instead of hanging (the stuck threads are left behind).
func finishes(_ body: @escaping @Sendable () -> Void) -> Bool {
  let done = DispatchSemaphore(value: 0)
  Thread.detachNewThread {
    body()
    done.signal()
  }
  return done.wait(timeout: .now() + 60) == .success
}

/// Keeps `objects` alive for good (what deadlocked threads still use).
func abandon(_ objects: AnyObject...) {
  for object in objects { _ = Unmanaged.passRetained(object) }
}

/// A flag set once, read from any thread.
final class Flag: Sendable {
  private let value = Atomic<Bool>(false)
  func set() { value.store(true, ordering: .releasing) }
  var isSet: Bool { value.load(ordering: .acquiring) }
}

/// Busy work the optimizer cannot remove.
func spin(_ count: Int) {
  var index = 0
  while index < count { index = increment(index) }
}

@inline(never)
func increment(_ value: Int) -> Int { value + 1 }
