import KVOLite
import Testing

@Suite("Binding and ObservableBox")
struct BindingTests {
  struct Point: Equatable { var x = 0, y = 0 }

  @Test("a binding reads and writes through its closures")
  func getSet() {
    var storage = 1
    let binding = Binding(get: { storage }, set: { storage = $0 })
    binding.wrappedValue = 5
    #expect(storage == 5)
    #expect(binding.projectedValue.wrappedValue == 5)
  }

  @Test("a constant binding ignores sets")
  func constant() {
    let binding = Binding.constant(3)
    binding.wrappedValue = 4
    #expect(binding.wrappedValue == 3)
  }

  @Test("dynamic member lookup reaches properties of values and of objects")
  func dynamicMembers() {
    var point = Point()
    let binding = Binding(get: { point }, set: { point = $0 })
    binding.y.wrappedValue = 7
    #expect(point == Point(x: 0, y: 7))
    let address = Address(street: "a")
    let object = Binding.constant(address)
    object.street.wrappedValue = "b"
    #expect(address.street == "b")
  }

  @Test("an observable box notifies every set of its value")
  func box() throws {
    let box = ObservableBox(1)
    let log = Log<KeyValueChange<Int>>()
    let token = box.observe(\.value, options: [.old, .new]) { _, change in log.append(change) }
    box.value = 2
    #expect(try box.value(forKeyPath: "value") as? Int == 2)
    #expect(log.all == [KeyValueChange(kind: .setting, oldValue: 1, newValue: 2)])
    _ = token
  }

  @Test("boxes are Equatable, Hashable and Identifiable through their values")
  func boxConformances() {
    struct Tagged: Identifiable, Hashable { let id: Int }
    #expect(ObservableBox(1) == ObservableBox(1))
    #expect(ObservableBox("a") != ObservableBox("b"))
    #expect(Set([ObservableBox(1), ObservableBox(1)]).count == 1)
    #expect(ObservableBox(Tagged(id: 4)).id == 4)
    #expect(ObservableBox<String>.observableKeys === ObservableBox<String>.observableKeys)
  }
}
