import Foundation
import KVOLite
import KVOLiteTestSupport
import Testing

/// Observing code written against `NSObject`'s key-value observing, unchanged.
private final class Thermometer: KeyValueObservable, @unchecked Sendable {
  let observationRegistrar = ObservationRegistrar()
  @Observed var celsius = 20.0
  @Observed var readings: [Double] = []
}

/// Foundation's names for the observing types, where Foundation lacks them (everywhere but
/// Apple's platforms, whose Foundation declares them for `NSObject` and keeps them).
@Suite("Foundation's names")
struct FoundationNamesTests {
  #if !canImport(ObjectiveC)
    /// The code of a port: only Foundation's names.
    private final class Display {
      var shown: [String] = []
      var observation: NSKeyValueObservation?

      func watch(_ thermometer: Thermometer) {
        let options: NSKeyValueObservingOptions = [.initial, .old, .new]
        observation = thermometer.observe(\.celsius, options: options) {
          [unowned self] (_: Thermometer, change: NSKeyValueObservedChange<Double>) in
          let kind: NSKeyValueChange = change.kind
          shown.append("\(kind == .setting ? "set" : "?") \(change.newValue ?? .nan)")
        }
      }
    }

    @Test("a port's observing code compiles and behaves unchanged")
    func portedCode() {
      let thermometer = Thermometer()
      let display = Display()
      display.watch(thermometer)
      thermometer.celsius = 21.5
      display.observation?.invalidate()
      thermometer.celsius = 30
      #expect(display.shown == ["set 20.0", "set 21.5"])
    }

    @Test("the options and kinds have Foundation's raw values")
    func rawValues() {
      #expect(
        [NSKeyValueObservingOptions.new, .old, .initial, .prior].map(\.rawValue) == [1, 2, 4, 8])
      #expect(
        [NSKeyValueChange.setting, .insertion, .removal, .replacement].map(\.rawValue)
          == [1, 2, 3, 4])
      #expect(NSKeyValueObservedChange<Int>.Kind.self == NSKeyValueChange.self)
    }

    @Test("a change reads as Foundation's change dictionary: change[.newKey]")
    func changeDictionary() throws {
      let thermometer = Thermometer()
      var seen: [String] = []
      let token = try thermometer.observe("readings", options: [.old, .new, .prior]) { change in
        let kind = change[.kindKey] as? UInt ?? 0
        let indexes = (change[.indexesKey] as? IndexSet).map { Array($0) } ?? []
        let new = change[.newKey].map { "\($0)" } ?? "-"
        let old = change[.oldKey].map { "\($0)" } ?? "-"
        let prior = change[.notificationIsPriorKey] as? Bool
        seen.append("\(kind) \(indexes) \(old) \(new) \(prior.map { "\($0)" } ?? "post")")
      }
      thermometer.mutableArrayValue(for: \.readings).append(1.5)
      #expect(seen == ["2 [0] - - true", "2 [0] - [1.5] post"])
      let optional = KeyValueChange<Int?>(kind: .setting, oldValue: .some(nil), newValue: 3)
      #expect(optional[.oldKey] is NSNull)
      #expect(optional[.newKey] as? Int == 3)
      #expect(optional[NSKeyValueChangeKey(rawValue: "other")] == nil)
      _ = token
    }
  #endif

  @Test("a change's kind has Foundation's nested name on every platform")
  func kindName() {
    let change = KeyValueChange<Int>(kind: .removal)
    let kind: KeyValueChange<Int>.Kind = change.kind
    #expect(kind == .removal)
  }
}
