import KVOLiteBridge
import KVOLiteTestSupport
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

  @Test(
    "an observable box is an ObservableObject: objectWillChange, then $value in willSet, then KVO after the store"
  )
  func boxAsObservableObject() throws {
    let box = ObservableBox("a")
    let log = Log<String>()
    let willChange = box.objectWillChange.sink { log.append("willChange(\(box.value))") }
    let published = box.$value.sink { log.append("$value(\($0)) while \(box.value)") }
    let token = box.observe(\.value, options: [.prior, .new]) { box, change in
      log.append(
        change.isPrior ? "prior(\(box.value))" : "kvo(\(change.newValue!)) after \(box.value)")
    }
    box.value = "b"
    try box.setValue("c", forKeyPath: "value")
    #expect(
      log.all == [
        "$value(a) while a",
        "prior(a)", "willChange(a)", "$value(b) while a", "kvo(b) after b",
        "prior(b)", "willChange(b)", "$value(c) while b", "kvo(c) after c",
      ])
    _ = (willChange, published, token)
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
