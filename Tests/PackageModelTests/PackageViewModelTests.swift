import KVOLite
import KVOLiteBridge
import KVOLiteTestSupport
import PackageModel
import Testing

@Suite("Package view model")
struct PackageViewModelTests {
  /// Records every write to the recipient's names, and every value the view model publishes.
  final class Recorder {
    var modelWrites: [String] = []
    var viewModelValues: [String] = []
    var tokens: [ObservationToken] = []
    var cancellables = Set<AnyCancellable>()

    init(_ viewModel: PackageViewModel) throws {
      for key in ["recipient.firstName", "recipient.lastName"] {
        tokens.append(
          try viewModel.package.observe(key, options: [.new]) { [unowned self] change in
            modelWrites.append("\(key)=\(change.newValue!! as! String)")
          })
      }
      viewModel.$firstName.dropFirst().sink { [unowned self] in
        viewModelValues.append("first=\($0)")
      }
      .store(in: &cancellables)
      viewModel.$lastName.dropFirst().sink { [unowned self] in viewModelValues.append("last=\($0)")
      }
      .store(in: &cancellables)
    }
  }

  @Test("the view model starts with the model's names and summary")
  func initialState() {
    let viewModel = PackageViewModel(package: .sample())
    #expect(viewModel.firstName == "Ann")
    #expect(viewModel.lastName == "Smith")
    #expect(viewModel.street.wrappedValue == "1 Main St")
    #expect(viewModel.summary == Package.sample().summary)
  }

  @Test("a change on the model reaches the view model exactly once, and is not written back")
  func modelToViewModel() throws {
    let viewModel = PackageViewModel(package: .sample())
    let recorder = try Recorder(viewModel)
    viewModel.package.recipient.firstName = "Bea"
    viewModel.package.recipient.lastName = "Ray"
    #expect(recorder.viewModelValues == ["first=Bea", "last=Ray"])
    #expect(recorder.modelWrites == ["recipient.firstName=Bea", "recipient.lastName=Ray"])
  }

  @Test("a change on the view model reaches the model exactly once, and does not come back")
  func viewModelToModel() throws {
    let viewModel = PackageViewModel(package: .sample())
    let recorder = try Recorder(viewModel)
    viewModel.firstName = "Cy"
    viewModel.firstName = "Cy"
    viewModel.lastName = "Day"
    #expect(viewModel.package.recipient.firstName == "Cy")
    #expect(recorder.modelWrites == ["recipient.firstName=Cy", "recipient.lastName=Day"])
    #expect(recorder.viewModelValues == ["first=Cy", "first=Cy", "last=Day"])
  }

  @Test(
    "editing by key path: one route, through the model, mirrored in the view model's fields; the same value is unchanged"
  )
  func editByKeyPath() throws {
    let viewModel = PackageViewModel(package: .sample())
    let recorder = try Recorder(viewModel)
    var willChange = 0
    let cancellable = viewModel.objectWillChange.sink { willChange += 1 }
    try viewModel.setValue(fromText: "Cy", forKeyPath: "recipient.firstName")
    #expect(
      recorder.viewModelValues == ["first=Cy"] && recorder.modelWrites == ["recipient.firstName=Cy"]
    )
    // The same value again: unchanged, so nothing is written and nothing is published.
    #expect(
      try viewModel.setValue(fromText: "Cy", forKeyPath: "recipient.firstName").kind == .unchanged)
    #expect(recorder.modelWrites == ["recipient.firstName=Cy"])
    #expect(recorder.viewModelValues == ["first=Cy"])
    willChange = 0
    #expect(
      try viewModel.setValue(fromText: "2 Side St", forKeyPath: "recipient.postalAddress.street")
        .kind == .set)
    // Once for the street (observed on the model) and once for the summary that shows it.
    #expect(viewModel.package.recipient.postalAddress.street == "2 Side St" && willChange == 2)
    #expect(viewModel.street.wrappedValue == "2 Side St")
    try viewModel.setValue(fromText: "Leeds", forKeyPath: "recipient.postalAddress.city")
    #expect(viewModel.package.recipient.postalAddress.city == "Leeds")
    #expect(throws: KeyValueError.self) {
      try viewModel.setValue(fromText: "x", forKeyPath: "recipient.nickname")
    }
    #expect(
      viewModel.package.recipient.postalAddress.city == "Leeds" && viewModel.firstName == "Cy")
    _ = cancellable
  }

  @Test(
    "a content's field is edited by replacing the line: one replacement notification, the totals checked"
  )
  func editContentField() throws {
    let viewModel = PackageViewModel(package: .sample())
    var changes: [String] = []
    let token = viewModel.package.observe(\.contents, options: [.old, .new]) { _, change in
      changes.append("\(change.kind) \(change.indexes.map(Array.init) ?? [])")
    }
    let mug = viewModel.package.contents[1]
    let edit = try viewModel.setValue(fromText: "5", forKeyPath: "contents.1.quantity")
    let new = viewModel.package.contents[1]
    #expect(edit.kind == .replacedContent(index: 1, old: mug, new: new))
    #expect(new.title == "Mug" && new.quantity == 5 && new.weight == 0.5)
    #expect(changes == ["replacement [1]"])
    #expect(viewModel.summary.contains("(7 pcs, 3.5 kg)"))
    #expect(
      try viewModel.setValue(fromText: "5", forKeyPath: "contents.1.quantity").kind == .unchanged)
    #expect(throws: KeyValueError.self) {
      try viewModel.setValue(fromText: "\(Int.max)", forKeyPath: "contents.1.quantity")
    }
    #expect(throws: KeyValueError.self) {
      try viewModel.setValue(fromText: "nan", forKeyPath: "contents.1.weight")
    }
    #expect(throws: KeyValueError.self) {
      try viewModel.setValue(fromText: "1e308", forKeyPath: "contents.1.weight")
    }
    #expect(throws: KeyValueError.self) {
      try viewModel.setValue(fromText: " ", forKeyPath: "contents.1.title")
    }
    #expect(viewModel.package.contents[1] === new && changes.count == 1)
    _ = token
  }

  @Test("replacing the recipient reaches the view model")
  func replacedRecipient() throws {
    let viewModel = PackageViewModel(package: .sample())
    viewModel.package.recipient = Person(firstName: "Dee", lastName: "Fox")
    #expect(viewModel.firstName == "Dee")
    #expect(viewModel.lastName == "Fox")
  }

  @Test("the street binding replaces the postal address, and objectWillChange fires before")
  func streetBinding() throws {
    let viewModel = PackageViewModel(package: .sample())
    let oldAddress = viewModel.package.recipient.postalAddress
    var seen: [String] = []
    let cancellable = viewModel.objectWillChange.sink { seen.append(viewModel.street.wrappedValue) }
    viewModel.street.wrappedValue = "2 Side St"
    #expect(viewModel.package.recipient.postalAddress !== oldAddress)
    #expect(viewModel.package.recipient.postalAddress.city == "Springfield")
    #expect(viewModel.street.wrappedValue == "2 Side St")
    viewModel.package.recipient.postalAddress.street = "3 Hill Rd"
    // Each street change: first the street observation (street still old), then the summary's
    // @Published set (street already new).
    #expect(seen == ["1 Main St", "2 Side St", "2 Side St", "3 Hill Rd"])
    _ = cancellable
  }

  @Test("the summary follows every kind of change, however it is made")
  func summaryFollows() throws {
    let viewModel = PackageViewModel(package: .sample())
    var summaries: [String] = []
    func record() { summaries.append(viewModel.summary) }
    viewModel.package.recipient.lastName = "Lee"
    record()
    viewModel.firstName = "Bo"
    record()
    viewModel.street.wrappedValue = "2 Side St"
    record()
    try viewModel.addContent(title: "Lamp", weight: 2)
    record()
    try viewModel.removeContent(at: 0)
    record()
    viewModel.package.recipient.postalAddress = PostalAddress(street: "4 Low Rd")
    record()
    viewModel.package.sender = Person(firstName: "Zed")
    record()
    viewModel.package.recipient = Person(firstName: "Al")
    record()
    #expect(
      summaries == [
        "Ann Lee, 1 Main St · from Bob Jones · 2 items (3 pcs, 1.5 kg): Books ×2, Mug",
        "Bo Lee, 1 Main St · from Bob Jones · 2 items (3 pcs, 1.5 kg): Books ×2, Mug",
        "Bo Lee, 2 Side St · from Bob Jones · 2 items (3 pcs, 1.5 kg): Books ×2, Mug",
        "Bo Lee, 2 Side St · from Bob Jones · 3 items (4 pcs, 3.5 kg): Books ×2, Mug, Lamp",
        "Bo Lee, 2 Side St · from Bob Jones · 2 items (2 pcs, 2.5 kg): Mug, Lamp",
        "Bo Lee, 4 Low Rd · from Bob Jones · 2 items (2 pcs, 2.5 kg): Mug, Lamp",
        "Bo Lee, 4 Low Rd · from Zed · 2 items (2 pcs, 2.5 kg): Mug, Lamp",
        "Al · from Zed · 2 items (2 pcs, 2.5 kg): Mug, Lamp",
      ])
  }

  @Test("invalid contents and indexes are errors that change nothing")
  func contentErrors() {
    let viewModel = PackageViewModel(package: .sample())
    #expect(throws: PackageError.quantityTooSmall(0)) {
      try viewModel.addContent(title: "Mug", quantity: 0)
    }
    #expect(throws: PackageError.noContent(index: 5, count: 2)) {
      try viewModel.removeContent(at: 5)
    }
    #expect(throws: PackageError.noContent(index: 3, count: 2)) {
      try viewModel.insertContent(try PackageContent(title: "Pen"), at: 3)
    }
    #expect(viewModel.package.contents.count == 2)
  }

  @Test("the view model is released with its package observations")
  func lifetime() {
    let package = Package.sample()
    weak var weakViewModel: PackageViewModel?
    do {
      let viewModel = PackageViewModel(package: package)
      weakViewModel = viewModel
      viewModel.firstName = "Temp"
    }
    #expect(weakViewModel == nil)
    package.recipient.firstName = "After"
    #expect(package.recipient.observationRegistrar.triggerCount == 0)
  }
}
