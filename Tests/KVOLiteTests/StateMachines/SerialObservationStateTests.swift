import KVOLiteLocking
import KVOLiteTestSupport
import Testing

@testable import KVOLite

/// The state machine of an observation that follows elements (its queue, its taker, its end),
/// without threads: each state under each event, with changes that are numbers.
@Suite("Element observation state machine")
struct SerialObservationStateTests {
  typealias State = SerialObservationState<Int>
  static let me = ThreadIdentity(address: 0x10)
  static let other = ThreadIdentity(address: 0x20)

  /// The taker's states, and the end.
  enum Start: String, CaseIterable, CustomStringConvertible {
    case nobody, taking, calling, otherTaking, ended
    var description: String { rawValue }

    /// The state, with change 1 filled and a place reserved after it (not filled).
    func make() -> State {
      var state = State(memberships: [])
      let first = state.reserve()!
      #expect(state.fill(first, with: 1) == nil)
      _ = state.reserve()
      switch self {
      case .nobody: break
      case .taking: state.beginStart(me)
      case .calling:
        state.beginStart(me)
        #expect(state.beginCall() == true)
      case .otherTaking: state.beginStart(other)
      case .ended: _ = state.end()
      }
      return state
    }
  }

  @Test("reserve: places in order, none once ended", arguments: Start.allCases)
  func reserve(_ start: Start) {
    var state = start.make()
    let place = state.reserve()
    #expect(place == (start == .ended ? nil : 2))
    #expect(state.pendingCount == (start == .ended ? 0 : 3))
  }

  @Test(
    "fill: a reserved place takes its change; a place emptied since drops it",
    arguments: Start.allCases)
  func fill(_ start: Start) {
    var state = start.make()
    #expect(state.fill(1, with: 2) == (start == .ended ? 2 : nil))
  }

  @Test(
    "startTaking: the first thread takes; its own call nests; anyone else leaves",
    arguments: Start.allCases)
  func startTaking(_ start: Start) {
    var state = start.make()
    let decision = state.startTaking(Self.me)
    let expected: [Start: (State.Start, State.Taker)] = [
      .nobody: (.take(nested: false), .taking(Self.me, calling: false)),
      .taking: (.leave, .taking(Self.me, calling: false)),
      .calling: (.take(nested: true), .taking(Self.me, calling: false)),
      .otherTaking: (.leave, .taking(Self.other, calling: false)),
      .ended: (.leave, .nobody),
    ]
    #expect(decision == expected[start]!.0)
    #expect(state.taker == expected[start]!.1)
  }

  @Test(
    "next: ready changes in order; at the first place not filled, the taker lets go",
    arguments: Start.allCases)
  func next(_ start: Start) {
    var state = start.make()
    if start == .ended {
      #expect(state.next(nested: false) == nil)
      return
    }
    #expect(state.next(nested: false) == 1)
    // Place 1 is reserved, not filled: taking stops there.
    #expect(state.next(nested: false) == nil)
    #expect(state.taker == .nobody)
    #expect(state.pendingCount == 1)
    #expect(state.fill(1, with: 2) == nil)
    #expect(state.next(nested: false) == 2)
    #expect(state.pendingCount == 0)
  }

  @Test("next, nested: when none is ready, the taker goes back to its call")
  func nextNested() {
    var state = Start.calling.make()
    #expect(state.startTaking(Self.me) == .take(nested: true))
    #expect(state.next(nested: true) == 1)
    #expect(state.next(nested: true) == nil)
    #expect(state.taker == .taking(Self.me, calling: true))
  }

  @Test("beginCall and endCall: the taker calls, unless ended", arguments: Start.allCases)
  func calls(_ start: Start) {
    var state = start.make()
    #expect(state.beginCall() == (start != .ended))
    switch start {
    case .taking, .calling: #expect(state.taker == .taking(Self.me, calling: true))
    case .otherTaking: #expect(state.taker == .taking(Self.other, calling: true))
    case .nobody, .ended: #expect(state.taker == .nobody)
    }
    state.endCall()
    if case .taking(_, let calling) = state.taker { #expect(!calling) }
  }

  @Test(
    "dropPending: the queue is emptied, and places taken before are dropped",
    arguments: Start.allCases)
  func dropPending(_ start: Start) {
    var state = start.make()
    let dropped = state.dropPending()
    #expect(dropped.count == (start == .ended ? 0 : 2))
    #expect(state.pendingCount == 0)
    #expect(state.fill(1, with: 2) == 2)
  }

  @Test("keep: a part is kept, or handed back to end at once once ended", arguments: Start.allCases)
  func keep(_ start: Start) {
    var state = start.make()
    let token = ObservationToken(Observation())
    let handedBack = state.keep(token)
    #expect((handedBack === token) == (start == .ended))
    let ended = state.end()
    if start != .ended { #expect(ended?.tokens.first === token) }
  }

  @Test(
    "end: once, with the queue's changes dropped; nothing is reserved, taken or called after",
    arguments: Start.allCases)
  func end(_ start: Start) {
    var state = start.make()
    let ended = state.end()
    #expect((ended == nil) == (start == .ended))
    #expect(ended?.dropped.count ?? 0 == (start == .ended ? 0 : 2))
    #expect(state.isEnded)
    #expect(state.end() == nil)
    #expect(state.reserve() == nil)
    #expect(state.startTaking(Self.me) == .leave)
    #expect(state.beginCall() == false)
  }
}
