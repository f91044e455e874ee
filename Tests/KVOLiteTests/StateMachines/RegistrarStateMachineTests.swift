import KVOLiteTestSupport
import Testing

@testable import KVOLite

/// The registrar's state machine, without threads: each state of a key (unobserved, its list
/// published and idle with room or full, published and busy, the object gone) under each
/// event, asserting the next state and what the transition hands back.
@Suite("Registrar state machine")
struct RegistrarStateMachineTests {
  /// What an action asks, in one shape (`nil` for `.none`, `.refused` and `.finish`).
  struct Performed {
    var publish: [RegistrarStateMachine.Publication] = []
    var release: [Any] = []
    var waitFor: [ObserverList] = []
    var invalidate: [Observation] = []

    init?(_ action: RegistrarStateMachine.Action) {
      switch action {
      case .publish(let publication): publish = [publication]
      case .removed(let publication, let released, let waitFor, let pruned):
        publish = publication.map { [$0] } ?? []
        release = (released.map { [$0] } ?? []) + pruned
        self.waitFor = waitFor
      case .release(let objects, let observation):
        release = objects
        invalidate = observation.map { [$0] } ?? []
      case .tornDown(let publications, let rooted, let classic, let frames):
        publish = publications
        invalidate = rooted
        release = classic + frames.map { $0 as Any }
      case .none, .refused, .finish: return nil
      }
    }

    /// The one trigger released, if that is all that was released.
    var releasedTrigger: Trigger? {
      release.count == 1 ? release[0] as? Trigger : nil
    }
  }

  /// A key's state, and the triggers in it: `other` first, `trigger` second (when there).
  enum Start: String, CaseIterable, CustomStringConvertible {
    case unobserved, idleWithRoom, idleFull, busy, tornDown
    var description: String { rawValue }
  }

  /// A machine in state `start` for key 0, with its triggers.
  struct Fixture {
    let person = Person()
    let context: RegistrarContext
    var state = RegistrarStateMachine(keyCount: 2)
    let other: Trigger
    let trigger: Trigger

    init(_ start: Start) {
      context = person.observationRegistrar.context(of: person)
      other = Self.make(context)
      trigger = Self.make(context)
      switch start {
      case .unobserved:
        break
      case .idleWithRoom:
        _ = state.add(trigger, firstListSlots: 2)
      case .idleFull, .busy, .tornDown:
        _ = state.add(other, firstListSlots: 2)
        _ = state.add(trigger)
        #expect(list.map { $0.count == Int($0.header.slots) } == true)
      }
      if start == .busy { #expect(list!.gate.pointee.enter() == true) }
      if start == .tornDown { _ = state.tearDown() }
    }

    static func make(_ context: RegistrarContext, options: ObservingOptions = []) -> Trigger {
      Trigger(
        order: nextRegistrationOrder(), context: context, keyIndex: 0, isTyped: true,
        options: options)
    }

    var list: ObserverList? { state.currentList(key: 0) }
    var triggers: [Trigger]? { list?.triggers }
    var retired: [ObserverList] { state.retired.compactMap(\.list) }

    /// The identities of the current list's triggers, in order.
    var order: [ObjectIdentifier]? { triggers?.map(ObjectIdentifier.init) }
  }

  @Test("add: a new list, in place, a copy, or refused", arguments: Start.allCases)
  func add(_ start: Start) {
    var fixture = Fixture(start)
    let before = fixture.list
    let added = Fixture.make(fixture.context)
    let result = fixture.state.add(added)
    switch (start, result) {
    case (.unobserved, .publish(let publication)):
      #expect(publication.old == nil)
      #expect(fixture.order == [ObjectIdentifier(added)])
    case (.idleWithRoom, .none):
      #expect(fixture.list === before)
      #expect(fixture.order == [fixture.trigger, added].map(ObjectIdentifier.init))
    case (.idleFull, .publish(let publication)), (.busy, .publish(let publication)):
      #expect(publication.old === before)
      #expect(publication.list === fixture.list)
      #expect(fixture.order == [fixture.other, fixture.trigger, added].map(ObjectIdentifier.init))
      // Only a list that deliveries still iterate is remembered.
      #expect(fixture.retired.count == (start == .busy ? 1 : 0))
    case (.tornDown, .refused):
      #expect(fixture.list == nil)
    default:
      Issue.record("\(start): unexpected \(result)")
    }
    #expect(added.isActive)
  }

  @Test(
    "remove: in place, by a copy, the last leaves no list; the trigger ends",
    arguments: Start.allCases)
  func remove(_ start: Start) {
    var fixture = Fixture(start)
    let before = fixture.list
    guard let removed = Performed(fixture.state.remove(fixture.trigger)) else {
      Issue.record("remove performs nothing")
      return
    }
    #expect(!fixture.trigger.isActive)
    switch start {
    case .unobserved, .tornDown:
      #expect(removed.publish.isEmpty && removed.release.isEmpty && removed.waitFor.isEmpty)
    case .idleWithRoom:
      // The last trigger: no list is left, none is waited for.
      #expect(removed.publish.first?.list == nil && removed.publish.first?.old === before)
      #expect(fixture.list == nil && removed.waitFor.isEmpty && fixture.retired.isEmpty)
    case .idleFull:
      #expect(removed.publish.isEmpty && removed.releasedTrigger === fixture.trigger)
      #expect(fixture.list === before && fixture.list?.live == 1)
      #expect(removed.waitFor.isEmpty)
    case .busy:
      // The list a delivery iterates is replaced, kept as retired, and waited for.
      #expect(removed.publish.first?.old === before && removed.releasedTrigger == nil)
      #expect(fixture.order == [ObjectIdentifier(fixture.other)])
      #expect(removed.waitFor.count == 1 && removed.waitFor.first === before)
      #expect(fixture.retired.count == 1)
    }
    #expect(fixture.other.isActive == (start != .tornDown))
  }

  @Test(
    "remove again: changes nothing, but reports the same lists to wait for",
    arguments: Start.allCases)
  func removeTwice(_ start: Start) {
    var fixture = Fixture(start)
    let first = Performed(fixture.state.remove(fixture.trigger))
    let list = fixture.list
    let second = Performed(fixture.state.remove(fixture.trigger))
    #expect(second?.publish.isEmpty == true && second?.releasedTrigger == nil)
    #expect(fixture.list === list)
    #expect(
      second?.waitFor.map(ObjectIdentifier.init) == first?.waitFor.map(ObjectIdentifier.init))
  }

  @Test(
    "tearDown: every list unpublished, every trigger ended, torn down for good",
    arguments: Start.allCases)
  func tearDown(_ start: Start) {
    var fixture = Fixture(start)
    let before = fixture.list
    let done = Performed(fixture.state.tearDown())
    #expect(fixture.state.phase == .tornDown)
    #expect(fixture.list == nil)
    #expect(!fixture.trigger.isActive || start == .unobserved)
    switch start {
    case .tornDown:
      #expect(done == nil)  // Torn down already: nothing more.
    case .unobserved:
      #expect(done?.publish.isEmpty == true)
    case .idleWithRoom, .idleFull, .busy:
      #expect(done?.publish.count == 1)
      #expect(done?.publish.first?.old === before && done?.publish.first?.list == nil)
      #expect(fixture.retired.count == (start == .busy ? 1 : 0))
    }
    #expect(done?.invalidate.isEmpty != false)  // No observation is rooted at the object here.
  }

  @Test("currentList: the published list, whatever its gate", arguments: Start.allCases)
  func currentList(_ start: Start) {
    let fixture = Fixture(start)
    #expect(
      (fixture.state.currentList(key: 0) != nil)
        == [.idleWithRoom, .idleFull, .busy].contains(start))
    #expect(fixture.state.currentList(key: 1) == nil)
  }

  @Test("forgetDelivered: forgets a retired list once the last delivery left it")
  func forgetDelivered() {
    var fixture = Fixture(.busy)
    let busy = fixture.list!
    _ = fixture.state.remove(fixture.trigger)
    #expect(Performed(fixture.state.forgetDelivered())?.release.count == 1)
    #expect(fixture.retired.count == 1)
    busy.gate.pointee.leave()
    _ = fixture.state.forgetDelivered()
    #expect(fixture.retired.isEmpty)
    #expect(fixture.state.lists(holding: fixture.trigger).isEmpty)
  }

  @Test(
    "lateList: the current list, for a change whose list was replaced by one with triggers taking changes in flight"
  )
  func lateList() {
    var fixture = Fixture(.busy)
    let busy = fixture.list!
    // A plain trigger added meanwhile does not take the change in flight.
    _ = fixture.state.add(Fixture.make(fixture.context))
    #expect(fixture.state.lateList(key: 0, after: busy) == nil)
    _ = fixture.state.add(Fixture.make(fixture.context, options: .takesChangesInFlight))
    let current = fixture.list!
    #expect(current !== busy)
    #expect(fixture.state.lateList(key: 0, after: busy) === current)
    // A change delivered from the current list met every trigger there.
    #expect(fixture.state.lateList(key: 0, after: current) == nil)
  }

  @Test(
    "classic registrations: kept (notified), removed (notified no more), refused and removed when torn down"
  )
  func classic() {
    var fixture = Fixture(.idleFull)
    func registration() -> ClassicRegistration {
      ClassicRegistration(observer: ObjectIdentifier(fixture.person), keyPath: "k", context: nil)
    }
    let first = registration()
    let second = registration()
    #expect(!first.isKept)
    guard case .none = fixture.state.keepClassic(first),
      case .none = fixture.state.keepClassic(second)
    else {
      Issue.record("a registration is not kept")
      return
    }
    #expect(first.isKept && second.isKept)
    // The most recent one that matches goes first.
    let removed = Performed(fixture.state.removeClassic { _ in true })
    #expect(removed?.release.first as? ClassicRegistration === second)
    #expect(!second.isKept && first.isKept)
    let done = Performed(fixture.state.tearDown())
    #expect(done?.release.contains { $0 as? ClassicRegistration === first } == true)
    #expect(!first.isKept)
    guard case .refused = fixture.state.keepClassic(registration()),
      case .none = fixture.state.removeClassic(where: { _ in true })
    else {
      Issue.record("a registration is kept, or removed, once torn down")
      return
    }
  }
}
