import KVOLiteBridge
import KVOLiteTestSupport
import Testing

/// A view model of a parcel's recipient, bound with ``TwoWayBinding``.
private final class RecipientViewModel: ObservableObject {
  @Published var firstName = ""
  var cancellables = Set<AnyCancellable>()
  let onDeinit: (() -> Void)?

  init(_ parcel: Parcel, onDeinit: (() -> Void)? = nil) {
    self.onDeinit = onDeinit
    TwoWayBinding.bind(
      \.recipient.firstName, of: parcel, to: \.firstName, publishedBy: \.$firstName, on: self
    )
    .store(in: &cancellables)
  }

  deinit { onDeinit?() }
}

@Suite("Two-way binding")
struct TwoWayBindingTests {
  /// The model's notifications and the view model's published values, after binding.
  private static func record(_ parcel: Parcel, _ viewModel: RecipientViewModel) -> (
    model: Log<String>, viewModel: Log<String>, tokens: (ObservationToken, AnyCancellable)
  ) {
    let model = Log<String>()
    let published = Log<String>()
    let token = parcel.observe(\.recipient.firstName, options: [.new]) { _, change in
      model.append(change.newValue!)
    }
    let cancellable = viewModel.$firstName.dropFirst().sink { published.append($0) }
    return (model, published, (token, cancellable))
  }

  @Test("the property takes the model's value at once, without writing it back")
  func initialValue() {
    let parcel = Parcel(recipient: Person(firstName: "Ann"))
    let writes = Log<String>()
    let token = parcel.observe(\.recipient.firstName, options: [.new]) { _, change in
      writes.append(change.newValue!)
    }
    let viewModel = RecipientViewModel(parcel)
    #expect(viewModel.firstName == "Ann")
    #expect(writes.all.isEmpty)
    _ = token
  }

  @Test("a change on the model reaches the view model once, with no echo")
  func modelToViewModel() {
    let parcel = Parcel(recipient: Person(firstName: "Ann"))
    let viewModel = RecipientViewModel(parcel)
    let (model, published, tokens) = Self.record(parcel, viewModel)
    parcel.recipient.firstName = "Bob"
    #expect(viewModel.firstName == "Bob")
    #expect(published.all == ["Bob"])
    #expect(model.all == ["Bob"])
    _ = tokens
  }

  @Test("a change on the view model reaches the model once, with no echo")
  func viewModelToModel() {
    let parcel = Parcel(recipient: Person(firstName: "Ann"))
    let viewModel = RecipientViewModel(parcel)
    let (model, published, tokens) = Self.record(parcel, viewModel)
    viewModel.firstName = "Cy"
    #expect(parcel.recipient.firstName == "Cy")
    #expect(model.all == ["Cy"])
    #expect(published.all == ["Cy"])
    _ = tokens
  }

  @Test("an unchanged value is not written again; a value that differs from the last one is")
  func duplicates() {
    let parcel = Parcel(recipient: Person(firstName: "Ann"))
    let viewModel = RecipientViewModel(parcel)
    let (model, _, tokens) = Self.record(parcel, viewModel)
    viewModel.firstName = "Ann"
    viewModel.firstName = "Dee"
    viewModel.firstName = "Dee"
    parcel.recipient.firstName = "Ann"
    viewModel.firstName = "Dee"
    #expect(model.all == ["Dee", "Ann", "Dee"])
    #expect(viewModel.firstName == "Dee")
    _ = tokens
  }

  @Test(
    "replacing an intermediate of the chain, or a set by key-value coding, reaches the view model")
  func otherChanges() throws {
    let parcel = Parcel(recipient: Person(firstName: "Ann"))
    let viewModel = RecipientViewModel(parcel)
    parcel.recipient = Person(firstName: "Eve")
    #expect(viewModel.firstName == "Eve")
    try parcel.setValue("Fay", forKeyPath: "recipient.firstName")
    #expect(viewModel.firstName == "Fay")
    viewModel.firstName = "Gus"
    #expect(parcel.recipient.firstName == "Gus")
  }

  @Test("after cancel nothing crosses, either way")
  func cancel() {
    let parcel = Parcel(recipient: Person(firstName: "Ann"))
    let viewModel = RecipientViewModel(parcel)
    viewModel.cancellables = []
    parcel.recipient.firstName = "Bob"
    #expect(viewModel.firstName == "Ann")
    viewModel.firstName = "Cy"
    #expect(parcel.recipient.firstName == "Bob")
  }

  @Test("the view model keeps its model alive, not the reverse; releasing it ends the binding")
  func lifetimes() {
    let released = Counter()
    let parcel = Parcel(recipient: Person(firstName: "Ann"), onDeinit: released.increment)
    var viewModel: RecipientViewModel? = RecipientViewModel(parcel, onDeinit: released.increment)
    viewModel = nil
    #expect(released.count == 1)
    #expect(parcel.observationRegistrar.triggerCount == 0)
    do {
      let model = Parcel(recipient: Person(firstName: "Ann"), onDeinit: released.increment)
      viewModel = RecipientViewModel(model)
    }
    #expect(released.count == 1)  // The view model holds its model.
    viewModel?.firstName = "Bob"
    viewModel = nil
    #expect(released.count == 2)
  }

  @Test("changes from two threads at once each cross once, and the two sides end equal")
  func concurrentChanges() {
    let parcel = Parcel(recipient: Person(firstName: "start"))
    let viewModel = RecipientViewModel(parcel)
    nonisolated(unsafe) let shared = viewModel
    race(workers: 2) { worker in
      for round in 0..<2_000 {
        if worker == 0 {
          parcel.recipient.firstName = "model \(round)"
        } else {
          shared.firstName = "view \(round)"
        }
      }
    }
    parcel.recipient.firstName = "end"
    #expect(viewModel.firstName == "end")
    viewModel.firstName = "final"
    #expect(parcel.recipient.firstName == "final")
  }
}
