import KVOLiteLocking
import KVOLiteTestSupport
import Testing

@testable import KVOLite

/// The state machine of an observation that follows elements (its queue, its taker, its end),
/// without threads: each state under each event, with changes that are numbers.
@Suite("Element observation state machine")
struct SerialObservationStateMachineTests {
  typealias State = SerialObservationStateMachine<Int>

  /// The place an action reserved, if it is `.fill(place:)`.
  static func place(_ action: State.Action) -> Int? {
    guard case .fill(let place) = action else { return nil }
    return place
  }

  /// The change an action hands over: `.process`'s, or the one `.release` drops.
  static func change(_ action: State.Action) -> Int? {
    switch action {
    case .process(let change): change
    case .release(let dropped) where dropped.count == 1: dropped[0]
    default: nil
    }
  }

  /// How `.take` decided (`nil` for any other action).
  static func nested(_ action: State.Action) -> Bool? {
    guard case .take(let nested) = action else { return nil }
    return nested
  }

  /// `.end`'s tokens and dropped changes (`nil` for any other action).
  static func ended(_ action: State.Action) -> (tokens: [ObservationToken], dropped: [Int?])? {
    guard case .end(let tokens, let dropped) = action else { return nil }
    return (tokens, dropped)
  }

  /// Whether the action is `.call`.
  static func calls(_ action: State.Action) -> Bool {
    guard case .call = action else { return false }
    return true
  }
  static let me = ThreadIdentity(address: 0x10)
  static let other = ThreadIdentity(address: 0x20)

  /// The taker's states, and the end.
  enum Start: String, CaseIterable, CustomStringConvertible {
    case nobody, taking, calling, otherTaking, ended
    var description: String { rawValue }

    /// The state, with change 1 filled and a place reserved after it (not filled).
    func make() -> State {
      var state = State(memberships: [])
      let first = place(state.reserve())!
      #expect(change(state.fill(first, with: 1)) == nil)
      _ = state.reserve()
      switch self {
      case .nobody: break
      case .taking: _ = state.beginStart(me)
      case .calling:
        _ = state.beginStart(me)
        #expect(calls(state.beginCall()))
      case .otherTaking: _ = state.beginStart(other)
      case .ended: _ = state.end()
      }
      return state
    }
  }

  @Test("reserve: places in order, none once ended", arguments: Start.allCases)
  func reserve(_ start: Start) {
    var state = start.make()
    let place = Self.place(state.reserve())
    #expect(place == (start == .ended ? nil : 2))
    #expect(state.pendingCount == (start == .ended ? 0 : 3))
  }

  @Test(
    "fill: a reserved place takes its change; a place emptied since drops it",
    arguments: Start.allCases)
  func fill(_ start: Start) {
    var state = start.make()
    #expect(Self.change(state.fill(1, with: 2)) == (start == .ended ? 2 : nil))
  }

  @Test(
    "startTaking: the first thread takes; its own call nests; anyone else leaves",
    arguments: Start.allCases)
  func startTaking(_ start: Start) {
    var state = start.make()
    let decision = Self.nested(state.startTaking(Self.me))
    // `nil`: leave (someone else takes, or the end); otherwise take, nested or not.
    let expected: [Start: (Bool?, State.Taker)] = [
      .nobody: (false, .taking(Self.me, calling: false)),
      .taking: (nil, .taking(Self.me, calling: false)),
      .calling: (true, .taking(Self.me, calling: false)),
      .otherTaking: (nil, .taking(Self.other, calling: false)),
      .ended: (nil, .nobody),
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
      #expect(Self.change(state.next(nested: false)) == nil)
      return
    }
    #expect(Self.change(state.next(nested: false)) == 1)
    // Place 1 is reserved, not filled: taking stops there.
    #expect(Self.change(state.next(nested: false)) == nil)
    #expect(state.taker == .nobody)
    #expect(state.pendingCount == 1)
    #expect(Self.change(state.fill(1, with: 2)) == nil)
    #expect(Self.change(state.next(nested: false)) == 2)
    #expect(state.pendingCount == 0)
  }

  @Test("next, nested: when none is ready, the taker goes back to its call")
  func nextNested() {
    var state = Start.calling.make()
    #expect(Self.nested(state.startTaking(Self.me)) == true)
    #expect(Self.change(state.next(nested: true)) == 1)
    #expect(Self.change(state.next(nested: true)) == nil)
    #expect(state.taker == .taking(Self.me, calling: true))
  }

  @Test("beginCall and endCall: the taker calls, unless ended", arguments: Start.allCases)
  func calls(_ start: Start) {
    var state = start.make()
    #expect(Self.calls(state.beginCall()) == (start != .ended))
    switch start {
    case .taking, .calling: #expect(state.taker == .taking(Self.me, calling: true))
    case .otherTaking: #expect(state.taker == .taking(Self.other, calling: true))
    case .nobody, .ended: #expect(state.taker == .nobody)
    }
    _ = state.endCall()
    if case .taking(_, let calling) = state.taker { #expect(!calling) }
  }

  @Test(
    "dropPending: the queue is emptied, and places taken before are dropped",
    arguments: Start.allCases)
  func dropPending(_ start: Start) {
    var state = start.make()
    guard case .release(let dropped) = state.dropPending() else {
      Issue.record("dropPending releases nothing")
      return
    }
    #expect(dropped.count == (start == .ended ? 0 : 2))
    #expect(state.pendingCount == 0)
    #expect(Self.change(state.fill(1, with: 2)) == 2)
  }

  @Test("keep: a part is kept, or handed back to end at once once ended", arguments: Start.allCases)
  func keep(_ start: Start) {
    var state = start.make()
    let token = ObservationToken(Observation())
    let handedBack = Self.ended(state.keep(token))?.tokens.first
    #expect((handedBack === token) == (start == .ended))
    let ended = Self.ended(state.end())
    if start != .ended { #expect(ended?.tokens.first === token) }
  }

  @Test(
    "end: once, with the queue's changes dropped; nothing is reserved, taken or called after",
    arguments: Start.allCases)
  func end(_ start: Start) {
    var state = start.make()
    let ended = Self.ended(state.end())
    #expect((ended == nil) == (start == .ended))
    #expect(ended?.dropped.count ?? 0 == (start == .ended ? 0 : 2))
    #expect(state.isEnded)
    #expect(Self.ended(state.end()) == nil)
    #expect(Self.place(state.reserve()) == nil)
    #expect(Self.nested(state.startTaking(Self.me)) == nil)
    #expect(!Self.calls(state.beginCall()))
  }
}
