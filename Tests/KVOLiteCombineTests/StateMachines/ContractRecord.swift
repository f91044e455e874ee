/// What one simulated subscriber saw, checked against Combine's contract by the interleaving
/// tests: its subscription before any value or completion, at most one completion and nothing
/// after it, nothing decided once its cancel has returned, and never more values than it asked
/// for.
///
/// A delivery is decided by a transition (under the machine's lock) and made after unlocking:
/// one decided before the subscriber's cancel returned may still arrive after it on the
/// deciding thread (as in Combine, a cancel does not wait for other threads); one decided after
/// must never be made. A value decided before the completion is decided must reach the
/// subscriber before it.
final class ContractRecord {
  private(set) var events: [String] = []
  /// The demand the subscriber asked for, in all (`nil`: unlimited).
  private(set) var asked: Int? = 0
  private(set) var values = 0
  /// Whether values may follow the completion (as Combine's `switchToLatest` forwards the
  /// latest publisher's values after upstream's failure).
  var valuesAfterCompletion = false
  /// Whether its cancel has returned.
  private(set) var cancelled = false
  /// What a transition decided to deliver after the cancel returned.
  private(set) var decidedAfterCancel: String?
  /// How many values transitions decided to deliver, in all and before the completion was.
  private var decidedValues = 0
  private var valuesDecidedBeforeCompletion: Int?
  /// The completion, delivered before a value decided before it.
  private var overtaking: String?

  func subscription() { events.append("subscription") }

  func value(_ value: Int) {
    values += 1
    events.append("value(\(value))")
  }

  func completion(_ text: String = "finished") {
    if let before = valuesDecidedBeforeCompletion, values < before, overtaking == nil {
      overtaking = "completion(\(text)) before a value decided before it: \(events)"
    }
    events.append("completion(\(text))")
  }

  func asked(_ demand: Int?) {
    guard let current = asked else { return }
    asked = demand.map { current + $0 }
  }

  func cancelReturned() { cancelled = true }

  /// A transition decided to deliver `what`.
  func decided(_ what: String) {
    if cancelled, decidedAfterCancel == nil { decidedAfterCancel = what }
    if what == "value" { decidedValues += 1 }
    if what == "completion", valuesDecidedBeforeCompletion == nil {
      valuesDecidedBeforeCompletion = decidedValues
    }
  }

  /// What breaks the contract, or `nil`.
  var violation: String? {
    if let first = events.first, first != "subscription" {
      return "\(first) before the subscription: \(events)"
    }
    if events.dropFirst().contains("subscription") { return "two subscriptions: \(events)" }
    if let end = events.firstIndex(where: { $0.hasPrefix("completion") }),
      let next = events[(end + 1)...].first(where: {
        !valuesAfterCompletion || !$0.hasPrefix("value")
      })
    {
      return "\(next) after the completion: \(events)"
    }
    if let overtaking { return overtaking }
    if let late = decidedAfterCancel { return "\(late) decided after cancel returned: \(events)" }
    if let asked, values > asked { return "\(values) values for \(asked) asked: \(events)" }
    return nil
  }
}
