import KVOLiteBridge
import Testing

/// The recommended view model of KVOLiteBridge's landing page and the porting article: a
/// two-way mirror with ``TwoWayBinding``, compiled and run.
extension Articles {
  enum Recommended {
    final class ContactViewModel: ObservableObject {
      @Published var firstName = ""
      private var cancellables = Set<AnyCancellable>()

      init(contact: Contact) {
        TwoWayBinding.bind(
          \.firstName, of: contact, to: \.firstName, publishedBy: \.$firstName, on: self
        )
        .store(in: &cancellables)
      }
    }
  }
}

@Suite("Documentation: the recommended view model")
struct RecommendedViewModelTests {
  @Test("a change on either side reaches the other once, and nothing echoes")
  func mirrorsBothWays() {
    let contact = Articles.Contact()
    let viewModel = Articles.Recommended.ContactViewModel(contact: contact)
    var published: [String] = []
    var notified: [String] = []
    let cancellable = viewModel.$firstName.dropFirst().sink { published.append($0) }
    let token = contact.observe(\.firstName, options: [.new]) { _, change in
      notified.append(change.newValue!)
    }
    contact.firstName = "Ann"  // reaches the view model
    viewModel.firstName = "Bo"  // reaches the model
    // contact.firstName == "Bo", viewModel.firstName == "Bo"
    #expect(contact.firstName == "Bo" && viewModel.firstName == "Bo")
    #expect(published == ["Ann", "Bo"])
    #expect(notified == ["Ann", "Bo"])
    _ = (cancellable, token)
  }
}
