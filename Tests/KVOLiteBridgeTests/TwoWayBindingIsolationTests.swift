import Dispatch
import Foundation
import KVOLiteBridge
import KVOLiteTestSupport
import Testing

/// A view model isolated to the main actor, bound in its initializer (on the main actor).
@MainActor
private final class MainActorViewModel: ObservableObject {
  @Published var name = ""
  var cancellables = Set<AnyCancellable>()

  init(_ person: Person) {
    TwoWayBinding.bind(\.firstName, of: person, to: \.name, publishedBy: \.$name, on: self)
      .store(in: &cancellables)
  }
}

/// An executor that runs its jobs on one dispatch queue, which code can recognize.
final class QueueExecutor: SerialExecutor {
  static let key = DispatchSpecificKey<Bool>()
  let queue = DispatchQueue(label: "QueueActor")

  init() { queue.setSpecific(key: Self.key, value: true) }

  /// Whether the calling code runs on the queue (and so on ``QueueActor``).
  static var isCurrent: Bool { DispatchQueue.getSpecific(key: key) == true }

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    queue.async { job.runSynchronously(on: self.asUnownedSerialExecutor()) }
  }
}

/// A global actor other than the main actor, whose code runs on a recognizable queue.
@globalActor
actor QueueActor {
  static let shared = QueueActor()
  private let executor = QueueExecutor()
  nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
}

/// A view model isolated to ``QueueActor``.
@QueueActor
private final class QueueActorViewModel: ObservableObject {
  @Published var name = ""
  var cancellables = Set<AnyCancellable>()

  init(_ person: Person) {
    TwoWayBinding.bind(\.firstName, of: person, to: \.name, publishedBy: \.$name, on: self)
      .store(in: &cancellables)
  }
}

/// A binding made on an actor (a view model isolated to it) writes the view model on that
/// actor, whichever thread changes the model.
@Suite("Two-way binding and actors")
struct TwoWayBindingIsolationTests {
  @Test("a change of the model reaches a main-actor view model on the main actor")
  @MainActor
  func mainActor() async {
    let person = Person(firstName: "start")
    let viewModel = MainActorViewModel(person)
    #expect(viewModel.name == "start")
    // The main actor runs its jobs on the main queue (not always on the main thread: under
    // `swift test` on Linux, another thread drains that queue).
    let onMainQueue = DispatchSpecificKey<Bool>()
    DispatchQueue.main.setSpecific(key: onMainQueue, value: true)
    let onMainActor = Log<Bool>()
    let cancellable = viewModel.$name.dropFirst().sink { _ in
      onMainActor.append(DispatchQueue.getSpecific(key: onMainQueue) == true)
    }
    await Task.detached { person.firstName = "background" }.value
    while viewModel.name != "background" { await Task.yield() }
    // A change made on the main actor crosses in a task too, as `receive(on:)` would.
    person.firstName = "main"
    #expect(viewModel.name == "background")
    while viewModel.name != "main" { await Task.yield() }
    // A change of the view model (made on its actor) crosses at once.
    viewModel.name = "edited"
    #expect(person.firstName == "edited")
    #expect(onMainActor.all == [true, true, true])
    _ = cancellable
  }

  @Test("a change of the model reaches a view model isolated to another actor on that actor")
  @QueueActor
  func otherActor() async {
    let person = Person(firstName: "start")
    let viewModel = QueueActorViewModel(person)
    #expect(viewModel.name == "start")
    let onActor = Log<Bool>()
    let cancellable = viewModel.$name.dropFirst().sink { _ in
      onActor.append(QueueExecutor.isCurrent)
    }
    await Task.detached { person.firstName = "elsewhere" }.value
    while viewModel.name != "elsewhere" { await Task.yield() }
    viewModel.name = "edited"
    #expect(person.firstName == "edited")
    #expect(onActor.all == [true, true])
    _ = cancellable
  }
}
