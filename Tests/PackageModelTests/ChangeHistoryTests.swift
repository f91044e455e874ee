import KVOLite
import KVOLiteTestSupport
import PackageModel
import Testing

@Suite("Undo and redo")
struct ChangeHistoryTests {
  @Test("the history keeps its last `limit` steps: the oldest go first, and memory stays bounded")
  func bounded() {
    let package = Package.sample()
    let history = ChangeHistory(root: package, limit: 3)
    #expect(ChangeHistory(root: package).limit == ChangeHistory.defaultLimit)
    for name in ["A", "B", "C", "D", "E"] { package.recipient.firstName = name }
    for expected in ["D", "C", "B"] {
      #expect(history.undo())
      #expect(package.recipient.firstName == expected)
    }
    #expect(!history.undo())
    #expect(package.recipient.firstName == "B")
    for expected in ["C", "D", "E"] {
      #expect(history.redo())
      #expect(package.recipient.firstName == expected)
    }
    #expect(!history.redo())
  }

  @Test("every kind of change can be undone back to the start, and redone to the end")
  func everyKindOfChange() throws {
    let package = Package.sample()
    let history = ChangeHistory(root: package)
    let viewModel = PackageViewModel(package: package)
    var states = [PackageDocument(package)]
    func step(_ body: () throws -> Void) rethrows {
      try history.group(body)
      states.append(PackageDocument(package))
    }
    try step { try package.setValue("Bea", forKeyPath: "recipient.firstName") }
    step { viewModel.lastName = "Ray" }
    step { viewModel.street.wrappedValue = "2 Side St" }
    step { package.recipient.postalAddress.city = "Ogdenville" }
    try step { try viewModel.addContent(title: "Lamp", quantity: 2, weight: 1) }
    try step { try viewModel.removeContent(at: 0) }
    try step { try viewModel.insertContent(try PackageContent(title: "Pen"), at: 1) }
    step { package.sender = Person(firstName: "Zed") }
    step { package.sender.lastName = "Zee" }
    step { package.reset() }
    step { package.apply(PackageDocument(Package.sample())) }
    for expected in states.reversed().dropFirst() {
      #expect(history.undo())
      #expect(PackageDocument(package) == expected)
    }
    #expect(!history.undo())
    #expect(viewModel.firstName == "Ann")
    for expected in states.dropFirst() {
      #expect(history.redo())
      #expect(PackageDocument(package) == expected)
    }
    #expect(!history.redo())
  }

  @Test("a group of changes is one step; a change outside a group is a step by itself")
  func grouping() {
    let package = Package.sample()
    let history = ChangeHistory(root: package)
    history.group {
      package.recipient.firstName = "A"
      package.recipient.lastName = "B"
    }
    package.sender.firstName = "C"
    history.undo()
    #expect(package.sender.firstName == "Bob")
    #expect(package.recipient.firstName == "A")
    history.undo()
    #expect(package.recipient.fullName == "Ann Smith")
  }

  @Test("a new change clears the redo steps; an empty group adds no step")
  func newChangeClearsRedo() {
    let package = Package.sample()
    let history = ChangeHistory(root: package)
    package.recipient.firstName = "A"
    history.undo()
    #expect(history.canRedo)
    history.group {}
    #expect(history.canRedo)
    package.recipient.firstName = "B"
    #expect(!history.canRedo)
    #expect(!history.redo())
  }

  @Test("undo and redo notify observers like any other change, with to-many kinds")
  func undoNotifies() throws {
    let package = Package.sample()
    let history = ChangeHistory(root: package)
    var kinds: [String] = []
    let token = try package.observe("contents") { change in
      kinds.append("\(change.kind) \(Array(change.indexes ?? []))")
    }
    package.mutableArrayValue(for: \.contents).append(try PackageContent(title: "Lamp"))
    history.undo()
    history.redo()
    #expect(kinds == ["insertion [2]", "removal [2]", "insertion [2]"])
    _ = token
  }
}
