import KVOLiteBridge
import KVOLiteTestSupport

// The models of the DocC articles (Sources/KVOLite/KVOLite.docc), compiled here so that the
// articles' code is code that builds: `ArticleSnippetTests` checks that every Swift block of the
// articles appears in these files, line for line.

/// The articles' namespace, so that their type names do not clash with other fixtures.
enum Articles {
  final class Contact: KeyValueObservable {
    let observationRegistrar = ObservationRegistrar()
    static let observableKeys: ObservableKeys<Contact> = [
      .attribute("firstName", \.firstName),
      .attribute("lastName", \.lastName),
      .derived("fullName", \.fullName, affectedBy: ["firstName", "lastName"]),
      .toOne("address", \.address),
    ]
    @Observed var firstName = ""
    @Observed var lastName = ""
    @Observed var address = StreetAddress()
    var fullName: String { "\(firstName) \(lastName)" }
  }

  final class StreetAddress: KeyValueObservable {
    let observationRegistrar = ObservationRegistrar()
    static let observableKeys: ObservableKeys<StreetAddress> = [
      .attribute("street", \.street),
      .attribute("city", \.city),
    ]
    @Observed var street = ""
    @Observed var city = ""
  }

  final class LineItem: KeyValueObservable {
    let observationRegistrar = ObservationRegistrar()
    static let observableKeys: ObservableKeys<LineItem> = [
      .attribute("title", \.title),
      .attribute("price", \.price),
    ]
    @Observed var title: String
    @Observed var price: Double

    init(_ title: String, price: Double) {
      self.title = title
      self.price = price
    }
  }

  final class Order: KeyValueObservable {
    let observationRegistrar = ObservationRegistrar()
    static let observableKeys: ObservableKeys<Order> = [
      .attribute("status", \.status, notifiesAutomatically: false),
      .toMany("items", \.items),
    ]
    @Observed var status = "open"
    @Observed var items: [LineItem] = []

    /// `status` notifies only when it really changes.
    func setStatus(_ newValue: String) throws {
      guard newValue != status else { return }
      try willChangeValue(for: \.status)
      status = newValue
      try didChangeValue(for: \.status)
    }
  }

  /// The porting article's view model: a two-way mirror of a contact's first name.
  final class ContactViewModel: ObservableObject {
    @Published var firstName = ""
    private var cancellables = Set<AnyCancellable>()

    init(contact: Contact) {
      contact.publisher(for: \.firstName).assign(to: &$firstName)
      $firstName.dropFirst().removeDuplicates()
        .assign(to: \.firstName, on: contact)
        .store(in: &cancellables)
    }
  }
}
