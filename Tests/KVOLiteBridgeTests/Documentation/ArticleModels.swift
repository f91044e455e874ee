import KVOLiteBridge
import KVOLiteTestSupport

// The models of the DocC articles (Sources/KVOLite/KVOLite.docc), for tests of what the articles
// show (ArticleExampleTests). The articles' own code is compiled and run, as written, by CI's
// Scripts/check-doc-blocks.

/// The articles' namespace, so that their type names do not clash with other fixtures.
enum Articles {
  // KVOLite: the same model
  class Contact: KeyValueObservable {
    let observationRegistrar = ObservationRegistrar()
    static let observableKeys: ObservableKeys<Contact> = [
      .derived("fullName", \.fullName, affectedBy: ["firstName", "lastName"])
    ]
    @Observed var firstName = ""
    @Observed var lastName = ""
    @Observed var address = StreetAddress()
    var fullName: String { "\(firstName) \(lastName)" }
  }

  class StreetAddress: KeyValueObservable {
    let observationRegistrar = ObservationRegistrar()
    @Observed var street = ""
    @Observed var city = ""
  }

  final class LineItem: KeyValueObservable {
    let observationRegistrar = ObservationRegistrar()
    @Observed var title: String
    @Observed var price: Double

    init(_ title: String, price: Double) {
      self.title = title
      self.price = price
    }
  }

  final class Order: KeyValueObservable {
    let observationRegistrar = ObservationRegistrar()
    @Observed(notifiesAutomatically: false) var status = "open"
    @Observed var items: [LineItem] = []

    /// `status` notifies only when it really changes.
    func setStatus(_ newValue: String) {
      guard newValue != status else { return }
      willChangeValue(for: \.status)
      status = newValue
      didChangeValue(for: \.status)
    }
  }

  // The overview of "Declaring observable models".
  class Author: KeyValueObservable {
    let observationRegistrar = ObservationRegistrar()
    @Observed var name = ""
  }

  class Book: KeyValueObservable {
    let observationRegistrar = ObservationRegistrar()
    @Observed var title = ""
    @Observed var pages = 0
    @Observed var author = Author()
  }

  class Shelf: KeyValueObservable {
    let observationRegistrar = ObservationRegistrar()
    static let observableKeys: ObservableKeys<Shelf> = [
      .derived("totalPages", \.totalPages, affectedBy: ["books.pages"])
    ]
    @Observed var name = ""
    @Observed var books: [Book] = []
    var totalPages: Int { books.reduce(0) { $0 + $1.pages } }
  }

  // "Declaring observable models", class hierarchies.
  class Vehicle: KeyValueObservable {
    let observationRegistrar = ObservationRegistrar()
    class var observableKeys: ObservableKeys<Vehicle> {
      [.derived("label", \.label, affectedBy: ["name"])]
    }
    @Observed var name = ""
    var label: String { name }
  }

  final class Truck: Vehicle {
    override class var observableKeys: ObservableKeys<Vehicle> {
      super.observableKeys + [
        .derived("label", \Truck.label, affectedBy: ["name", "payload"]),
        .derived("summary", \Truck.summary, affectedBy: ["label"]),
      ]
    }
    @Observed var payload = 0
    override var label: String { "\(name), \(payload) kg" }
    var summary: String { "Truck \(label)" }
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
