import KVOLiteLocking
import KVOLiteTestSupport
import Testing

@testable import KVOLiteBridge

/// A model, for the machine (which only holds it).
final class MirrorModel {}

/// The state machine of a two-way binding, without threads: each state (who crosses the model's
/// changes, who writes the view model's value, cancelled), made on an actor or not, under each
/// event, asserting the next state and what the transition hands back.
@Suite("Two-way binding state machine")
struct TwoWayMirrorStateMachineTests {
  typealias State = TwoWayMirrorStateMachine<MirrorModel, String>
  static let me = ThreadIdentity(address: 0x10)
  static let other = ThreadIdentity(address: 0x20)

  enum Start: String, CaseIterable, CustomStringConvertible {
    case idle, crossing, crossingAgain, otherCrossing, scheduled
    case setting, settingEcho, settingAdjusted, otherSetting, cancelled
    var description: String { rawValue }
  }

  /// A case: a state, on an actor or not.
  struct Case: CustomStringConvertible, Sendable {
    let start: Start
    let onActor: Bool
    var description: String { "\(start)\(onActor ? " on an actor" : "")" }

    static let all = Start.allCases.flatMap {
      [Case(start: $0, onActor: false), .init(start: $0, onActor: true)]
    }

    func make() -> (State, MirrorModel) {
      let model = MirrorModel()
      var state = State(model: model, crossesOnActor: onActor)
      state.bound!.shown = "shown"
      switch start {
      case .idle: break
      case .crossing: state.bound!.modelSide = .crossing(me, again: false)
      case .crossingAgain: state.bound!.modelSide = .crossing(me, again: true)
      case .otherCrossing: state.bound!.modelSide = .crossing(other, again: false)
      case .scheduled: state.bound!.modelSide = .scheduled
      case .setting, .settingEcho, .settingAdjusted:
        state.bound!.setter = .init(thread: me)
        state.bound!.setter!.depth = 1
        state.bound!.setter!.notifications = [.setting: 0, .settingEcho: 1, .settingAdjusted: 2][
          start]!
      case .otherSetting:
        state.bound!.setter = .init(thread: other)
        state.bound!.setter!.depth = 1
      case .cancelled: _ = state.cancel()
      }
      return (state, model)
    }
  }

  /// What a transition asked for, without its payload but the model's identity.
  enum Asked: Equatable {
    case none, cross, schedule, checkEcho, write, crossAfterStore, release, end
  }

  static func asked(_ action: State.Action, _ model: MirrorModel? = nil) -> Asked {
    switch action {
    case .none: return .none
    case .cross(let crossed, let shown):
      if let model { #expect(crossed === model && shown == "shown") }
      return .cross
    case .schedule: return .schedule
    case .checkEcho: return .checkEcho
    case .write: return .write
    case .crossAfterStore: return .crossAfterStore
    case .release: return .release
    case .end: return .end
    }
  }

  @Test("modelChanged", arguments: Case.all)
  func modelChanged(_ test: Case) {
    var (state, model) = test.make()
    let asked = Self.asked(state.modelChanged(Self.me), model)
    let side = state.bound?.modelSide
    switch test.start {
    case .cancelled:
      #expect(asked == .none && state.bound == nil)
    case .crossing, .crossingAgain:
      #expect(asked == .none && side == .crossing(Self.me, again: true))
    case .otherCrossing:
      #expect(asked == .none && side == .crossing(Self.other, again: true))
    case .scheduled:
      #expect(asked == .none && side == .scheduled)
    case .setting, .settingEcho, .settingAdjusted:
      // The setter's own write: counted, never crossed here.
      #expect(asked == .none && side == .idle)
      #expect(
        state.bound?.setter?.notifications
          == [.setting: 1, .settingEcho: 2, .settingAdjusted: 3][test.start])
    case .idle, .otherSetting:
      if test.onActor {
        #expect(asked == .schedule && side == .scheduled)
      } else {
        #expect(asked == .cross && side == .crossing(Self.me, again: false))
      }
    }
  }

  @Test(
    "start: crosses at once on the calling thread (on the actor too), unless a crossing is under way",
    arguments: Case.all)
  func start(_ test: Case) {
    var (state, model) = test.make()
    let person = Person()
    let observation = person.observe(\.firstName) { _, _ in }
    let subscription = AnyCancellable {}
    let action = state.start(observation: observation, subscription: subscription, thread: Self.me)
    if test.start == .cancelled {
      guard case .end(let ended, _, nil) = action else {
        Issue.record("a start after the cancel does not end its parts")
        return
      }
      #expect(ended === observation)
      return
    }
    let asked = Self.asked(action, model)
    #expect(state.bound?.observation === observation)
    switch test.start {
    case .crossing, .crossingAgain, .otherCrossing, .scheduled: #expect(asked == .none)
    default: #expect(asked == .cross && state.bound?.modelSide == .crossing(Self.me, again: false))
    }
  }

  @Test("scheduledTaskRuns: the task crosses if it is still scheduled", arguments: Case.all)
  func scheduledTaskRuns(_ test: Case) {
    var (state, model) = test.make()
    let side = state.bound?.modelSide
    let asked = Self.asked(state.scheduledTaskRuns(Self.me), model)
    if test.start == .scheduled {
      #expect(asked == .cross && state.bound?.modelSide == .crossing(Self.me, again: false))
    } else {
      #expect(asked == .none && state.bound?.modelSide == side)
    }
  }

  @Test("crossed: again while the model changed, otherwise nobody crosses", arguments: Case.all)
  func crossed(_ test: Case) {
    var (state, model) = test.make()
    let side = state.bound?.modelSide
    let next = Self.asked(state.crossed(), model)
    switch test.start {
    case .crossingAgain:
      #expect(next == .cross)
      #expect(state.bound?.modelSide == .crossing(Self.me, again: false))
    case .crossing, .otherCrossing:
      #expect(next == .none && state.bound?.modelSide == .idle)
    default:
      #expect(next == .none && state.bound?.modelSide == side)
    }
  }

  @Test(
    "viewModelPublished: the crossing thread checks its echo; anyone else writes the model",
    arguments: Case.all)
  func viewModelPublished(_ test: Case) {
    var (state, model) = test.make()
    let publication = state.viewModelPublished("new", Self.me)
    switch (test.start, publication) {
    case (.cancelled, .none):
      break
    case (.crossing, .checkEcho), (.crossingAgain, .checkEcho):
      #expect(state.bound?.shown == "shown")
    case (_, .write(let written, let replaced)):
      #expect(written === model && replaced == "shown" && state.bound?.shown == "new")
      #expect(state.bound?.setter?.thread == Self.me)
      let nested = [.setting, .settingEcho, .settingAdjusted].contains(test.start)
      #expect(state.bound?.setter?.depth == (nested ? 2 : 1))
    default:
      Issue.record("\(test): unexpected \(publication)")
    }
  }

  @Test("showEcho: the view model shows the crossed value", arguments: Case.all)
  func showEcho(_ test: Case) {
    var (state, _) = test.make()
    var replaced: String?
    if case .release(let value) = state.showEcho("echo") { replaced = value }
    #expect(replaced == (test.start == .cancelled ? nil : "shown"))
    #expect(state.bound?.shown == (test.start == .cancelled ? nil : "echo"))
  }

  @Test(
    "wrote: the setter is done; an adjustment crosses after the store, or in a task on the actor",
    arguments: Case.all)
  func wrote(_ test: Case) {
    var (state, _) = test.make()
    let written = Self.asked(state.wrote(Self.me))
    switch test.start {
    case .setting, .settingEcho:
      #expect(written == .none && state.bound?.setter == nil)
    case .settingAdjusted:
      #expect(written == (test.onActor ? .schedule : .crossAfterStore))
      #expect(state.bound?.setter == nil)
      #expect(state.bound?.modelSide == (test.onActor ? .scheduled : .idle))
    default:
      #expect(written == .none)
      if test.start == .otherSetting { #expect(state.bound?.setter?.thread == Self.other) }
    }
  }

  @Test("wrote, nested: the outer set decides, with the notifications of both")
  func wroteNested() {
    var (state, _) = Case(start: .settingEcho, onActor: false).make()
    guard case .write = state.viewModelPublished("inner", Self.me) else {
      Issue.record("the inner set does not write")
      return
    }
    _ = state.modelChanged(Self.me)
    #expect(Self.asked(state.wrote(Self.me)) == .none)
    #expect(state.bound?.setter?.depth == 1)
    #expect(Self.asked(state.wrote(Self.me)) == .crossAfterStore)
  }

  @Test("cancel: hands over what the binding held, once; cancelled for good", arguments: Case.all)
  func cancel(_ test: Case) {
    var (state, model) = test.make()
    var held: State.Bound?
    if case .end(_, _, let bound) = state.cancel() { held = bound }
    #expect((held?.model === model) == (test.start != .cancelled))
    #expect(state.bound == nil)
    #expect(Self.asked(state.cancel()) == .none)
    #expect(Self.asked(state.modelChanged(Self.me), model) == .none)
    guard case .none = state.viewModelPublished("late", Self.me) else {
      Issue.record("a cancelled binding writes")
      return
    }
  }
}
