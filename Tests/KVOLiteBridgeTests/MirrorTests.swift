import KVOLiteBridge
import KVOLiteTestSupport
import Testing

/// The two-way mirror as the package editor's view model builds it.
///
/// A value that crosses in one direction comes back in the other: the model's change is
/// published by the view model, whose pipe writes it to the model again. `removeDuplicates`
/// cannot stop that echo (the value is new to that pipe), so both pipes share the last value
/// that crossed, and drop a value equal to it.
private final class Mirror: ObservableObject {
  @Published var firstName = ""
  private var lastSynced: String?
  private var cancellables = Set<AnyCancellable>()

  init(_ parcel: Parcel) throws {
    parcel.publisher(for: \.recipient.firstName)
      .filter { [weak self] in self?.crossing($0) ?? false }
      .assign(to: &$firstName)
    $firstName.dropFirst().removeDuplicates()
      .filter { [weak self] in self?.crossing($0) ?? false }
      .assign(to: \.recipient.firstName, on: parcel)
      .store(in: &cancellables)
  }

  /// Whether `value` is new to the other side; records it as the last value that crossed.
  private func crossing(_ value: String) -> Bool {
    guard value != lastSynced else { return false }
    lastSynced = value
    return true
  }
}

@Suite("Two-way mirror")
struct MirrorTests {
  @Test("a change on the model reaches the view model once, with no loop")
  func modelToViewModel() throws {
    let parcel = Parcel(recipient: Person(firstName: "Ann"))
    let mirror = try Mirror(parcel)
    let modelWrites = Log<String>()
    let token = parcel.observe(\.recipient.firstName, options: [.new]) { _, change in
      modelWrites.append(change.newValue!)
    }
    let viewModelValues = Log<String>()
    let cancellable = mirror.$firstName.dropFirst().sink { viewModelValues.append($0) }
    #expect(mirror.firstName == "Ann")
    parcel.recipient.firstName = "Bob"
    #expect(mirror.firstName == "Bob")
    #expect(viewModelValues.all == ["Bob"])
    #expect(modelWrites.all == ["Bob"])
    _ = (token, cancellable)
  }

  @Test("a change on the view model reaches the model once, with no loop")
  func viewModelToModel() throws {
    let parcel = Parcel(recipient: Person(firstName: "Ann"))
    let mirror = try Mirror(parcel)
    let modelWrites = Log<String>()
    let token = parcel.observe(\.recipient.firstName, options: [.new]) { _, change in
      modelWrites.append(change.newValue!)
    }
    let viewModelValues = Log<String>()
    let cancellable = mirror.$firstName.dropFirst().sink { viewModelValues.append($0) }
    mirror.firstName = "Cy"
    #expect(parcel.recipient.firstName == "Cy")
    #expect(modelWrites.all == ["Cy"])
    #expect(viewModelValues.all == ["Cy"])
    mirror.firstName = "Cy"
    #expect(modelWrites.all == ["Cy"])
    parcel.recipient.firstName = "Dan"
    mirror.firstName = "Eve"
    #expect(modelWrites.all == ["Cy", "Dan", "Eve"])
    #expect(viewModelValues.all == ["Cy", "Cy", "Dan", "Eve"])
    _ = (token, cancellable)
  }

  @Test("replacing the model's intermediate object reaches the view model")
  func replacedIntermediate() throws {
    let parcel = Parcel(recipient: Person(firstName: "Ann"))
    let mirror = try Mirror(parcel)
    parcel.recipient = Person(firstName: "Dee")
    #expect(mirror.firstName == "Dee")
  }
}
