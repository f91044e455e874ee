import KVOLiteTestSupport
import Testing

@testable import KVOLite

/// The links machine without threads: each state (nothing placed, placed, a reading begun, a
/// later reading placed, ended) under each event (begin a reading, place one, link, end),
/// asserting the action and the links kept.
@Suite("Links state machine")
struct LinksStateMachineTests {
  /// Triggers standing for links (a registrar context of a model, key 0).
  static let person = Person()
  static func trigger() -> Trigger {
    Trigger(
      order: nextRegistrationOrder(),
      context: person.observationRegistrar.context(of: person), keyIndex: 0, isTyped: false,
      options: [])
  }

  static func want(_ object: Int, key: Int = 0, rereads: Bool = true) -> LinksStateMachine.Wanted {
    .init(
      key: .init(object: ObjectIdentifier(objects[object]), key: key), rereads: rereads,
      isRoot: object == 0)
  }

  static let objects: [Person] = [Person(), Person(), Person()]

  /// A machine with `wanted` placed by reading 1, and its triggers.
  static func placed(_ wanted: [LinksStateMachine.Wanted]) -> (LinksStateMachine, [Trigger]) {
    var machine = LinksStateMachine()
    guard case .read(let generation) = machine.beginReading(),
      case .place(let link, let detach) = machine.place(generation, wanted: wanted)
    else {
      Issue.record("a first reading does not place")
      return (machine, [])
    }
    #expect(link == Array(wanted.indices))
    #expect(detach.isEmpty)
    let triggers = link.map { _ in trigger() }
    for (index, trigger) in zip(link, triggers) { machine.linked(trigger, for: wanted[index]) }
    return (machine, triggers)
  }

  @Test("begin a reading: generations count up; nothing once ended")
  func beginReading() {
    var machine = LinksStateMachine()
    guard case .read(1) = machine.beginReading(), case .read(2) = machine.beginReading() else {
      Issue.record("readings are not numbered 1, 2")
      return
    }
    guard case .detach(let links) = machine.end() else {
      Issue.record("the end detaches nothing")
      return
    }
    #expect(links.isEmpty)
    guard case .none = machine.beginReading() else {
      Issue.record("a reading begins after the end")
      return
    }
  }

  @Test("the same links wanted again: nothing linked or detached")
  func sameLinks() {
    let wanted = [Self.want(0), Self.want(1)]
    var (machine, _) = Self.placed(wanted)
    guard case .read(let generation) = machine.beginReading(),
      case .place(let link, let detach) = machine.place(generation, wanted: wanted)
    else {
      Issue.record("a second reading does not place")
      return
    }
    #expect(link.isEmpty)
    #expect(detach.isEmpty)
    #expect(machine.links == wanted)
  }

  @Test("other links wanted: the new ones linked, the ones not wanted detached, order kept")
  func otherLinks() {
    var (machine, triggers) = Self.placed([Self.want(0), Self.want(1), Self.want(2)])
    let wanted = [Self.want(0), Self.want(2), Self.want(1, key: 1)]
    guard case .read(let generation) = machine.beginReading(),
      case .place(let link, let detach) = machine.place(generation, wanted: wanted)
    else {
      Issue.record("a second reading does not place")
      return
    }
    #expect(link == [2])
    #expect(detach.map(ObjectIdentifier.init) == [ObjectIdentifier(triggers[1])])
    machine.linked(Self.trigger(), for: wanted[2])
    #expect(machine.links == [Self.want(0), Self.want(2), Self.want(1, key: 1)])
  }

  @Test("a link wanted with another role, or whose trigger ended: linked again")
  func changedOrEndedLinks() {
    var (machine, triggers) = Self.placed([Self.want(0), Self.want(1)])
    triggers[1].end()
    let wanted = [Self.want(0, rereads: false), Self.want(1)]
    guard case .read(let generation) = machine.beginReading(),
      case .place(let link, let detach) = machine.place(generation, wanted: wanted)
    else {
      Issue.record("a second reading does not place")
      return
    }
    #expect(link == [0, 1])
    #expect(Set(detach.map(ObjectIdentifier.init)) == Set(triggers.map(ObjectIdentifier.init)))
  }

  @Test("an earlier reading that places after a later one: nothing (the later one's links stay)")
  func staleReading() {
    var (machine, _) = Self.placed([Self.want(0)])
    guard case .read(let earlier) = machine.beginReading(),
      case .read(let later) = machine.beginReading(),
      case .place(let link, _) = machine.place(later, wanted: [Self.want(0), Self.want(1)])
    else {
      Issue.record("the later reading does not place")
      return
    }
    #expect(link == [1])
    machine.linked(Self.trigger(), for: Self.want(1))
    guard case .none = machine.place(earlier, wanted: [Self.want(2)]) else {
      Issue.record("an earlier reading placed after a later one")
      return
    }
    #expect(machine.links == [Self.want(0), Self.want(1)])
  }

  @Test("the end: every link detached, no reading places after, a second end does nothing")
  func end() {
    var (machine, triggers) = Self.placed([Self.want(0), Self.want(1)])
    guard case .read(let generation) = machine.beginReading(),
      case .detach(let links) = machine.end()
    else {
      Issue.record("the end does not detach")
      return
    }
    #expect(links.map(ObjectIdentifier.init) == triggers.map(ObjectIdentifier.init))
    guard case .none = machine.place(generation, wanted: [Self.want(2)]),
      case .none = machine.end()
    else {
      Issue.record("a reading placed after the end, or the end ran twice")
      return
    }
    #expect(machine.linkCount == 0)
    #expect(machine.isEnded)
  }
}
