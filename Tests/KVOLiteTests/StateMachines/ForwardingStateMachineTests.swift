import KVOLiteLocking
import Testing

@testable import KVOLite

/// The transitions of a forwarded key path's machine (``ForwardingStateMachine``), without
/// threads: who moves the registration of the rest of the path, what each step registers and
/// removes, and what ending leaves to remove, from every state.
@Suite("Forwarding state machine")
struct ForwardingStateMachineTests {
  private final class Object {}
  typealias Machine = ForwardingStateMachine

  /// Whether the action is `.move`.
  static func moves(_ action: Machine.Action) -> Bool {
    guard case .move = action else { return false }
    return true
  }

  /// `.step`'s object to remove from and whether to register (`nil` for another action).
  static func step(_ action: Machine.Action) -> (removeFrom: AnyObject?, register: Bool)? {
    guard case .step(let removeFrom, let register) = action else { return nil }
    return (removeFrom, register)
  }

  /// Whether the action is `.again`.
  static func again(_ action: Machine.Action) -> Bool {
    guard case .again = action else { return false }
    return true
  }

  /// `.remove`'s object (`nil` for another action).
  static func removes(_ action: Machine.Action) -> AnyObject? {
    guard case .remove(let object) = action else { return nil }
    return object
  }

  /// `.old`'s value, as a string (`nil` for another action).
  static func old(_ action: Machine.Action) -> String? {
    guard case .old(let value) = action else { return nil }
    return value as? String
  }

  @Test("one mover at a time; a move asked for meanwhile makes the mover look again")
  func oneMover() {
    var state = Machine()
    let moves = Self.moves(state.beginMove())
    let other = Self.moves(state.beginMove())  // Another thread: the mover will look again.
    #expect(moves && !other)
    let target = Object()
    let first = Self.step(state.move(to: target))
    #expect(first?.removeFrom == nil && first?.register == true)
    #expect(Self.again(state.finishMove(placed: target)))
    let already = Self.step(state.move(to: target))  // Already there.
    #expect(already?.removeFrom == nil && already?.register == false)
    let last = state.finishMove(placed: target)
    #expect(!Self.again(last) && Self.removes(last) == nil)
    #expect(!state.isMoving && state.current === target)
    #expect(Self.moves(state.beginMove()))
  }

  @Test("moving to another object removes from the old one; to nil registers nothing")
  func movesBetweenObjects() {
    var state = Machine()
    let first = Object()
    let second = Object()
    _ = state.beginMove()
    _ = state.move(to: first)
    _ = state.finishMove(placed: first)
    _ = state.beginMove()
    let step = Self.step(state.move(to: second))
    #expect(step?.removeFrom === first && step?.register == true)
    _ = state.finishMove(placed: nil)  // The new object refused the registration.
    #expect(state.current == nil)
    _ = state.beginMove()
    let none = Self.step(state.move(to: nil))
    #expect(none?.removeFrom == nil && none?.register == false)
  }

  @Test("ending: idle, it hands back what to remove; moving, the mover removes it; twice, nothing")
  func ending() {
    let object = Object()
    var idle = Machine()
    _ = idle.beginMove()
    _ = idle.move(to: object)
    _ = idle.finishMove(placed: object)
    let leftover = Self.removes(idle.end())
    let twice = Self.removes(idle.end())
    let moves = Self.moves(idle.beginMove())
    #expect(leftover === object && twice == nil && !moves)

    var moving = Machine()
    _ = moving.beginMove()
    #expect(Self.step(moving.move(to: object))?.register == true)
    #expect(Self.removes(moving.end()) == nil)
    let finished = moving.finishMove(placed: object)
    #expect(!Self.again(finished) && Self.removes(finished) === object)
    #expect(moving.current == nil && !moving.isMoving)

    var ended = Machine()
    _ = ended.end()
    #expect(!Self.moves(ended.beginMove()))
  }

  @Test("an ended mover registers nothing more")
  func endedMover() {
    var state = Machine()
    _ = state.beginMove()
    _ = state.end()
    #expect(Self.step(state.move(to: Object()))?.register == false)
  }

  @Test("old values are kept per thread, innermost first, and dropped at the end")
  func olds() {
    var state = Machine()
    _ = state.pushOld("outer", thread: ThreadIdentity(address: 1))
    _ = state.pushOld("inner", thread: ThreadIdentity(address: 1))
    _ = state.pushOld("other", thread: ThreadIdentity(address: 2))
    let inner = Self.old(state.popOld(thread: ThreadIdentity(address: 1)))
    let other = Self.old(state.popOld(thread: ThreadIdentity(address: 2)))
    let outer = Self.old(state.popOld(thread: ThreadIdentity(address: 1)))
    let none = Self.old(state.popOld(thread: ThreadIdentity(address: 1)))
    #expect(inner == "inner" && other == "other")
    #expect(outer == "outer" && none == nil)
    _ = state.pushOld("kept", thread: ThreadIdentity(address: 3))
    _ = state.end()
    #expect(Self.old(state.popOld(thread: ThreadIdentity(address: 3))) == nil)
  }
}
