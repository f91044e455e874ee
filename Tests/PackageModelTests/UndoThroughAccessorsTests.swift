import KVOLite
import KVOLiteTestSupport
import PackageModel
import Testing

/// A model meant to be subclassed.
private class Gauge: KeyValueObservable, @unchecked Sendable {
  let observationRegistrar = ObservationRegistrar()
  @Observed var reading = 0
}

/// Keeps its own log of what it was set to, and never goes below zero.
private final class Meter: Gauge, @unchecked Sendable {
  let log = Log<Int>()
  override var reading: Int {
    get { super.reading }
    set {
      super.reading = max(0, newValue)
      log.append(super.reading)
    }
  }
}

/// Undo and redo set values by key-value coding, which goes through the accessors: a
/// subclass's override of the property runs for them as for any set.
@Suite("Undo and redo through the accessors")
struct UndoThroughAccessorsTests {
  @Test("undo and redo call an overriding setter")
  func overridingSetter() {
    let meter = Meter()
    _ = meter.reading  // The getter hands the key path over.
    let history = ChangeHistory(root: meter)
    meter.reading = 5
    meter.reading = 9
    #expect(history.undo())
    #expect(history.undo())
    #expect(history.redo())
    #expect(meter.reading == 5)
    #expect(meter.log.all == [5, 9, 5, 0, 5])
  }
}
