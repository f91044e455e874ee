import KVOLiteBridge
import KVOLiteTestSupport
import Observation
import Testing

/// A model that Swift Observation sees.
private final class TrackedNote: KeyValueObservable, Observable, @unchecked Sendable {
  let observationRegistrar = ObservationRegistrar()
  @Observed var text = ""
}

/// A view model bound to a note's text.
private final class NoteViewModel: ObservableObject {
  @Published var text = ""
}

@Suite("Two-way binding and Swift Observation")
struct TwoWayBindingObservationTests {
  @Test(
    "a view model's change written through the binding fires the model's onChange, before the write"
  )
  func bindingWrite() {
    let note = TrackedNote()
    let viewModel = NoteViewModel()
    let binding = TwoWayBinding.bind(
      \.text, of: note, to: \.text, publishedBy: \.$text, on: viewModel)
    let log = Log<String>()
    withObservationTracking {
      _ = note.text
    } onChange: {
      log.append(note.text)
    }
    viewModel.text = "draft"
    #expect(log.all == [""])
    #expect(note.text == "draft")
    withExtendedLifetime(binding) {}
  }
}
