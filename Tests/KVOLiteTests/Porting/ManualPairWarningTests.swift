#if DEBUG
  import KVOLite
  import KVOLiteTestSupport
  import Synchronization
  import Testing

  /// A ported model: `level` notifies its sets by itself, `gauge` only by hand.
  private final class PortedThermostat: KeyValueObservable, @unchecked Sendable {
    let observationRegistrar = ObservationRegistrar()
    @Observed var level = 0
    @Observed(notifiesAutomatically: false) var gauge = 0
  }

  /// The debug-build warning for a will/did pair around a set of a key that notifies its sets
  /// automatically (its observers are notified twice, as in Foundation).
  @Suite("A will/did pair around a property that notifies by itself")
  struct ManualPairWarningTests {
    /// The warnings about `PortedThermostat` that `body` prints (other tests may print theirs
    /// meanwhile).
    private func warnings(_ body: () -> Void) -> [String] {
      let printed = Mutex<[String]>([])
      ManualPairWarning.capturing({ message in printed.withLock { $0.append(message) } }, body)
      return printed.withLock { $0 }.filter { $0.contains("PortedThermostat.") }
    }

    @Test("a set inside the pair notifies twice, and says so once per key")
    func setInsidePair() {
      let model = PortedThermostat()
      let log = Log<Int>()
      let token = model.observe(\.level, options: [.new]) { _, change in
        log.append(change.newValue ?? -1)
      }
      let printed = warnings {
        for value in [5, 6] {
          model.willChangeValue(for: \.level)
          model.level = value
          model.didChangeValue(for: \.level)
        }
      }
      #expect(log.all == [5, 5, 6, 6])
      #expect(printed == [ManualPairWarning.message(type: "PortedThermostat", key: "level")])
      #expect(
        printed.first
          == "KVOLite warning: PortedThermostat.level was set between willChangeValue and"
          + " didChangeValue, and it notifies its sets automatically, so its observers were"
          + " notified twice; declare it @Observed(notifiesAutomatically: false) to notify only"
          + " by hand, or remove the pair (printed once per key, in debug builds)")
      token.invalidate()
    }

    @Test("no warning for a key that notifies by hand, a set outside a pair, or no observer")
    func noWarning() throws {
      let model = PortedThermostat()
      let log = Log<Int>()
      let token = model.observe(\.gauge, options: [.new]) { _, change in
        log.append(change.newValue ?? -1)
      }
      let printed = warnings {
        model.willChangeValue(for: \.gauge)
        model.gauge = 1
        model.didChangeValue(for: \.gauge)
        model.level = 2
        model.willChangeValue(for: \.level)
        model.level = 3
        model.didChangeValue(for: \.level)
      }
      #expect(log.all == [1])
      #expect(printed == [])
      token.invalidate()
    }
  }
#endif
