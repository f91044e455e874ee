import KVOLiteCombine

/// What a ``ContractSubscriber`` received and was asked, behind its lock, with the checks that
/// need no setting of its own.
struct ContractState<Input> {
  var events: [String] = []
  var values: [Input] = []
  var completions = 0
  var subscribed = false
  /// The subscription, until it is cancelled or completes.
  var subscription: (any Subscription)?
  /// What it asked for and has not received yet.
  var demand = Subscribers.Demand.none
  /// What it asked for, or whether it cancelled, before its subscription came.
  var pendingDemand = Subscribers.Demand.none
  var pendingCancel = false
  var cancelReturned = false
  /// Where it cancelled from inside (`receive(subscription:)`, `receive(_:)`), when nothing
  /// may come after that cancel.
  var cancelledInside: String?
  /// The values (described) whose sends started after its cancel returned, and how many
  /// sends of a completion started before it returned and after.
  var late: [String] = []
  var earlyCompletions = 0
  var lateCompletions = 0
  /// The thread inside one of its `receive` methods (its identity's address), and how deep.
  var receiver: UInt = 0
  var depth = 0
  var violation: String?

  /// Keeps the first breach, with the events so far.
  mutating func fail(_ breach: String) {
    if violation == nil { violation = "\(breach): \(events)" }
  }

  /// `thread` starts receiving `event`: no other thread may be receiving.
  mutating func enter(_ thread: UInt, _ event: String) {
    if depth > 0, receiver != thread { fail("\(event) while another thread receives") }
    receiver = thread
    depth += 1
  }

  mutating func leave() {
    depth -= 1
    if depth == 0 { receiver = 0 }
  }

  /// The checks every value and completion passes: the subscription first; nothing after a
  /// cancel from inside; nothing after the completion (but values, if `valuesAfterCompletion`).
  mutating func check(_ event: String, valuesAfterCompletion: Bool) {
    if !subscribed { fail("\(event) before the subscription") }
    if let inside = cancelledInside { fail("\(event) after a cancel inside \(inside)") }
    if completions > 0, !valuesAfterCompletion { fail("\(event) after the completion") }
  }
}
