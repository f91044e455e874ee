import KVOLite
import KVOLiteTestSupport
import Testing

/// A base class that declares no keys.
private class Lamp: KeyValueObservable, @unchecked Sendable {
  let observationRegistrar = ObservationRegistrar()
  @Observed var watts = 40
}

/// A subclass that declares its own keys in a `static let`: Swift never calls it, because the
/// conformance, and with it `observableKeys`, is `Lamp`'s.
private final class DeskLamp: Lamp, @unchecked Sendable {
  static let observableKeys: ObservableKeys<DeskLamp> = [
    .derived("label", \.label, affectedBy: ["watts"])
  ]
  var label: String { "\(watts) W" }
}

/// The same hierarchy declared the way that works: a `class var` in the base, overridden.
private class Torch: KeyValueObservable, @unchecked Sendable {
  let observationRegistrar = ObservationRegistrar()
  class var observableKeys: ObservableKeys<Torch> { [] }
  @Observed var lumens = 100
}

private final class HeadTorch: Torch, @unchecked Sendable {
  override class var observableKeys: ObservableKeys<Torch> {
    super.observableKeys + [.derived("label", \HeadTorch.label, affectedBy: ["lumens"])]
  }
  var label: String { "\(lumens) lm" }
}

/// A subclass's own `static let observableKeys` cannot be honoured: Swift dispatches the
/// requirement to the class that declares the conformance. The "no key" error says so, with
/// the fix, and the fix works.
@Suite("A subclass's own declarations")
struct SubclassDeclarationTests {
  @Test("the \"no key\" error of such a subclass names the fix: class var in the base")
  func unknownKeyNamesTheFix() {
    #expect(!DeskLamp.allObservableKeys.keys.map(\.name).contains("label"))
    do {
      _ = try DeskLamp().value(forKey: "label")
      Issue.record("the key should be unknown")
    } catch {
      #expect(
        error.description
          == "DeskLamp has no key \"label\"; if DeskLamp declares it in a `static let"
          + " observableKeys` of its own, that table is never read (Swift calls Lamp's): declare"
          + " `class var observableKeys` in Lamp and `override class var observableKeys` in"
          + " DeskLamp, adding to `super.observableKeys`")
    }
  }

  @Test("a misspelt key still gets its suggestion, and a class that declares keys no hint")
  func otherErrorsUnchanged() {
    #expect(
      throws: KeyValueError.unknownKey(
        key: "wats", type: "DeskLamp", path: "", suggestion: "watts")
    ) { try DeskLamp().value(forKey: "wats") }
    do {
      _ = try HeadTorch().value(forKey: "beam")
    } catch {
      #expect(error.description == "HeadTorch has no key \"beam\"")
    }
  }

  @Test("declared as the error says, the subclass's key exists")
  func fixWorks() throws {
    let torch = HeadTorch()
    #expect(try torch.value(forKey: "label") as? String == "100 lm")
    let log = Log<String>()
    let token = try torch.observe("label", options: [.new]) { change in
      log.append("\(change.newValue!!)")
    }
    torch.lumens = 250
    #expect(log.all == ["250 lm"])
    _ = token
  }
}
