import KVOLiteBridge
import KVOLiteTestSupport
import Testing

/// A view model whose binding a test makes after registering its own model observers.
private final class EditorViewModel: ObservableObject, @unchecked Sendable {
  @Published var name = ""
  var binding: AnyCancellable?

  func bind(_ person: Person) {
    binding = TwoWayBinding.bind(
      \.firstName, of: person, to: \.name, publishedBy: \.$name, on: self, isolation: nil)
  }
}

/// A view model isolated to the main actor, bound there.
@MainActor
private final class MainActorEditor: ObservableObject {
  @Published var name = ""
  var binding: AnyCancellable?

  func bind(_ person: Person) {
    binding = TwoWayBinding.bind(
      \.firstName, of: person, to: \.name, publishedBy: \.$name, on: self)
  }
}

/// Ends a name with "!", as a model observer that normalizes what is written: each set of a
/// name without it sets the name again.
private func exclaiming(_ person: Person) -> ObservationToken {
  person.observe(\.firstName, options: [.new]) { person, change in
    guard let name = change.newValue, !name.hasSuffix("!") else { return }
    person.firstName = name + "!"
  }
}

/// A model observer that changes the value a view model's set wrote to the model: the change
/// crosses back, so both sides hold the model's value (the view model's own `@Published`
/// would otherwise overwrite it with the value it was set to, in its store). Off an actor, only
/// KVOLite's `@Published` tells the binding when its store is done: with Apple's, that is the
/// documented case that remains, and those tests are KVOLite's only.
@Suite("Two-way binding: a model observer's adjustment")
struct TwoWayBindingAdjustmentTests {
  #if !canImport(Darwin)
    @Test("a set of the view model that a model observer adjusts ends with both sides adjusted")
    func viewModelSetAdjusted() {
      let person = Person(firstName: "start!")
      let normalizer = exclaiming(person)
      let viewModel = EditorViewModel()
      viewModel.bind(person)
      let published = Log<String>()
      let cancellable = viewModel.$name.dropFirst().sink { published.append($0) }
      viewModel.name = "typed"
      #expect(person.firstName == "typed!")
      #expect(viewModel.name == "typed!")
      // The view model published its own value, then the model's, once each.
      #expect(published.all == ["typed", "typed!"])
      // A value the observer leaves as it is crosses once, as always.
      viewModel.name = "plain!"
      #expect(person.firstName == "plain!")
      #expect(viewModel.name == "plain!")
      #expect(published.all == ["typed", "typed!", "plain!"])
      _ = (normalizer, cancellable)
    }

    @Test("a model observer registered after the binding adjusts the view model's set too")
    func observerAfterTheBinding() {
      let person = Person(firstName: "start!")
      let viewModel = EditorViewModel()
      viewModel.bind(person)
      let normalizer = exclaiming(person)
      viewModel.name = "later"
      #expect(person.firstName == "later!")
      #expect(viewModel.name == "later!")
      _ = normalizer
    }

  #endif

  @Test("a set of the model that an observer adjusts reaches the view model adjusted")
  func modelSetAdjusted() {
    let person = Person(firstName: "start!")
    let normalizer = exclaiming(person)
    let viewModel = EditorViewModel()
    viewModel.bind(person)
    person.firstName = "model"
    #expect(person.firstName == "model!")
    #expect(viewModel.name == "model!")
    _ = normalizer
  }

  @Test("on an actor, the adjustment crosses in a task after the set")
  @MainActor
  func onAnActor() async {
    let person = Person(firstName: "start!")
    let normalizer = exclaiming(person)
    let viewModel = MainActorEditor()
    viewModel.bind(person)
    #expect(viewModel.name == "start!")
    viewModel.name = "typed"
    #expect(person.firstName == "typed!")
    // The set stored its own value; the task that follows it crosses the model's.
    #expect(viewModel.name == "typed")
    // The task runs once the main actor is free: after a few turns at most.
    for _ in 0..<1_000 where viewModel.name != "typed!" { await Task.yield() }
    #expect(viewModel.name == "typed!")
    #expect(person.firstName == "typed!")
    _ = normalizer
  }

  #if !canImport(Darwin)
    @Test("with a writer on each side, the sides end equal and adjusted")
    func concurrentWriters() {
      var disagreements: [String] = []
      for round in 0..<50 {
        let person = Person(firstName: "start!")
        let normalizer = exclaiming(person)
        let viewModel = EditorViewModel()
        viewModel.bind(person)
        race(workers: 2) { worker in
          for index in 0..<50 {
            if worker == 0 {
              person.firstName = "model \(index)"
            } else {
              viewModel.name = "view model \(index)"
            }
          }
        }
        if viewModel.name != person.firstName || !person.firstName.hasSuffix("!") {
          disagreements.append("round \(round): \(person.firstName) / \(viewModel.name)")
        }
        _ = normalizer
      }
      #expect(disagreements == [])
    }
  #endif
}
