import KVOLiteBridge
import KVOLiteTestSupport

/// A two-way binding changed from both sides at once: one thread sets the model's key while
/// another sets the view model's `@Published` property. Nothing may deadlock (the two
/// directions cross in opposite orders), every value either side holds must be well-formed,
/// once the threads stop one set on either side must reach the other, and releasing the view
/// model must release it and end the binding.
enum BindingScenarios {
  static var all: [StressScenario] { [bothSidesAtOnce] }

  /// A view model over `Contact.name`, bound with ``TwoWayBinding``.
  final class ContactViewModel: ObservableObject, @unchecked Sendable {
    @Published var name = ""
    var binding: AnyCancellable?

    init(_ contact: Contact) {
      liveObjects.add(1, ordering: .relaxed)
      binding = TwoWayBinding.bind(\.name, of: contact, to: \.name, publishedBy: \.$name, on: self)
    }

    deinit { liveObjects.subtract(1, ordering: .relaxed) }
  }

  static let bothSidesAtOnce = StressScenario(
    name: "bindings: the model and the view model set at once"
  ) { iterations in
    var report = StressReport()
    let contact = Contact()
    let baseline = liveObjects.load(ordering: .relaxed)
    do {
      let viewModel = ContactViewModel(contact)
      let malformed = Counter()
      let published = Counter()
      let watcher = viewModel.$name.sink { value in
        published.increment()
        if !value.isEmpty && Stamp.parse(value) == nil { malformed.increment() }
      }
      race(workers: 2) { worker in
        for index in 0..<iterations {
          let value = Stamp.string(writer: worker, index: index)
          if worker == 0 { contact.name = value } else { viewModel.name = value }
        }
      }
      report.count("values published", published.count)
      report.expect("malformed values", malformed.count, 0)
      let fromModel = Stamp.string(writer: 8, index: iterations)
      contact.name = fromModel
      report.expect("view model after a set on the model", viewModel.name, fromModel)
      let fromViewModel = Stamp.string(writer: 9, index: iterations)
      viewModel.name = fromViewModel
      report.expect("model after a set on the view model", contact.name, fromViewModel)
      watcher.cancel()
    }
    report.expect("observations left on the model", contact.observationRegistrar.triggerCount, 0)
    withExtendedLifetime(contact) {}
    report.expect("objects left alive", liveObjects.load(ordering: .relaxed), baseline)
    return report
  }
}
