import KVOLiteBridge

// A model, a view model bound to it both ways, and a publisher of the model's key: what an app
// on KVOLiteBridge uses, and no URL. Prints what crossed, for the check to compare.

final class Contact: KeyValueObservable {
  let observationRegistrar = ObservationRegistrar()
  @Observed var firstName = ""
}

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

let contact = Contact()
let viewModel = ContactViewModel(contact: contact)
var names: [String] = []
let published = contact.publisher(for: \.firstName).dropFirst().sink { names.append($0) }
contact.firstName = "Ann"
viewModel.firstName = "Bo"
print("model \(contact.firstName), view model \(viewModel.firstName), published \(names)")
withExtendedLifetime(published) {}
