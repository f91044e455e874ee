import Foundation
import KVOLite
import Testing

/// A gauge meant to be subclassed, and one whose setter clamps: no other test uses them, and
/// each test below runs in a fresh process, where nothing has handed their accessors over.
private class Gauge: KeyValueObservable, @unchecked Sendable {
  let observationRegistrar = ObservationRegistrar()
  @Observed var level = 0
}

private final class ClampedGauge: Gauge, @unchecked Sendable {
  override var level: Int {
    get { super.level }
    set { super.level = min(newValue, 10) }
  }
}

/// When key-value coding reaches a property's accessors (see `AccessorRegistry`): once a get or
/// a set of the property has run on some object of its class, in this process. Each case runs
/// in a process of its own, so that no other test has run them first.
@Suite("Accessor hand-over")
struct AccessorHandOverTests {
  @Test("the first set hands the accessors over: key-value coding then runs the override")
  func setHandsOver() async {
    await #expect(processExitsWith: .success) {
      let gauge = ClampedGauge()
      gauge.level = 1  // a set, and no get
      try? gauge.setValue(50, forKey: "level")
      exit(gauge.level == 10 ? 0 : 1)
    }
  }

  @Test("the first get hands them over too")
  func getHandsOver() async {
    await #expect(processExitsWith: .success) {
      let gauge = ClampedGauge()
      _ = gauge.level
      try? gauge.setValue(50, forKey: "level")
      exit(gauge.level == 10 ? 0 : 1)
    }
  }

  @Test("before any get or set of the property, key-value coding writes its storage")
  func keyValueCodingFirst() async {
    // The documented limit (the Porting article's first lines): the runtime cannot make the key
    // path of a property-wrapped property, so until its own accessors run once, key-value
    // coding stores into it as the declaring class's own setter would.
    await #expect(processExitsWith: .success) {
      let gauge = ClampedGauge()
      try? gauge.setValue(50, forKey: "level")
      exit(gauge.level == 50 ? 0 : 1)
    }
  }
}
