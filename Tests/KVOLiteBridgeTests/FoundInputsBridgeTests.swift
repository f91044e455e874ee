import KVOLiteBridge
import KVOLiteTestSupport
import Testing

/// A model with an undeclared computed property, readable and writable.
private final class Caller: KeyValueObservable, @unchecked Sendable {
  let observationRegistrar = ObservationRegistrar()
  @Observed var name = "ann"
  var shout: String {
    get { name.uppercased() }
    set { name = newValue.lowercased() }
  }
}

/// A view model showing the shouted name.
private final class CallerViewModel: ObservableObject, @unchecked Sendable {
  @Published var text = ""
}

@Suite("Derived keys found by reading: publishers and bindings")
struct FoundInputsBridgeTests {
  @Test("publisher(for:) of an undeclared computed property publishes it after each input change")
  func publisher() {
    let caller = Caller()
    let log = Log<String>()
    let subscription = caller.publisher(for: \.shout).sink { log.append($0) }
    caller.name = "bo"
    caller.name = "cy"
    #expect(log.all == ["ANN", "BO", "CY"])
    subscription.cancel()
  }

  @Test("a TwoWayBinding over a computed source crosses both ways")
  func binding() {
    let caller = Caller()
    let viewModel = CallerViewModel()
    let binding = TwoWayBinding.bind(
      \.shout, of: caller, to: \.text, publishedBy: \.$text, on: viewModel, isolation: nil)
    #expect(viewModel.text == "ANN")
    caller.name = "bo"
    #expect(viewModel.text == "BO")
    viewModel.text = "Cy"
    #expect(caller.name == "cy")
    #expect(viewModel.text == "Cy")
    binding.cancel()
  }
}
