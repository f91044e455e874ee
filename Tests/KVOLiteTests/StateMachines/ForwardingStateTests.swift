import KVOLiteLocking
import Testing

@testable import KVOLite

/// The transitions of a forwarded key path's state (``ForwardingState``), without threads: who
/// moves the registration of the rest of the path, what each step registers and removes, and
/// what ending leaves to remove, from every state.
@Suite("Forwarding state")
struct ForwardingStateTests {
  private final class Object {}

  @Test("one mover at a time; a move asked for meanwhile makes the mover look again")
  func oneMover() {
    var state = ForwardingState()
    let moves = state.beginMove()
    let other = state.beginMove()  // Another thread: the mover will look again.
    #expect(moves && !other)
    let target = Object()
    let step = state.move(to: target)
    #expect(step.removeFrom == nil && step.register)
    let finished = state.finishMove(placed: target)
    #expect(finished.again && finished.removeFrom == nil)
    let again = state.move(to: target)  // Already there.
    #expect(again.removeFrom == nil && !again.register)
    let last = state.finishMove(placed: target)
    #expect(!last.again && last.removeFrom == nil)
    #expect(!state.isMoving && state.current === target)
    let next = state.beginMove()
    #expect(next)
  }

  @Test("moving to another object removes from the old one; to nil registers nothing")
  func movesBetweenObjects() {
    var state = ForwardingState()
    let first = Object()
    let second = Object()
    _ = state.beginMove()
    _ = state.move(to: first)
    _ = state.finishMove(placed: first)
    _ = state.beginMove()
    let step = state.move(to: second)
    #expect(step.removeFrom === first && step.register)
    _ = state.finishMove(placed: nil)  // The new object refused the registration.
    #expect(state.current == nil)
    _ = state.beginMove()
    let none = state.move(to: nil)
    #expect(none.removeFrom == nil && !none.register)
  }

  @Test("ending: idle, it hands back what to remove; moving, the mover removes it; twice, nothing")
  func ending() {
    let object = Object()
    var idle = ForwardingState()
    _ = idle.beginMove()
    _ = idle.move(to: object)
    _ = idle.finishMove(placed: object)
    let leftover = idle.end()
    let twice = idle.end()
    let moves = idle.beginMove()
    #expect(leftover === object && twice == nil && !moves)

    var moving = ForwardingState()
    _ = moving.beginMove()
    #expect(moving.move(to: object).register)
    let leftToMover = moving.end()
    #expect(leftToMover == nil)
    let finished = moving.finishMove(placed: object)
    #expect(!finished.again && finished.removeFrom === object)
    #expect(moving.current == nil && !moving.isMoving)

    var ended = ForwardingState()
    _ = ended.end()
    let endedMoves = ended.beginMove()
    #expect(!endedMoves)
  }

  @Test("an ended mover registers nothing more")
  func endedMover() {
    var state = ForwardingState()
    _ = state.beginMove()
    _ = state.end()
    #expect(state.move(to: Object()).register == false)
  }

  @Test("old values are kept per thread, innermost first, and dropped at the end")
  func olds() {
    var state = ForwardingState()
    state.pushOld("outer", thread: ThreadIdentity(address: 1))
    state.pushOld("inner", thread: ThreadIdentity(address: 1))
    state.pushOld("other", thread: ThreadIdentity(address: 2))
    let inner = state.popOld(thread: ThreadIdentity(address: 1))
    let other = state.popOld(thread: ThreadIdentity(address: 2))
    let outer = state.popOld(thread: ThreadIdentity(address: 1))
    let none = state.popOld(thread: ThreadIdentity(address: 1))
    #expect(inner as? String == "inner" && other as? String == "other")
    #expect(outer as? String == "outer" && none == nil)
    state.pushOld("kept", thread: ThreadIdentity(address: 3))
    _ = state.end()
    let dropped = state.popOld(thread: ThreadIdentity(address: 3))
    #expect(dropped == nil)
  }
}
