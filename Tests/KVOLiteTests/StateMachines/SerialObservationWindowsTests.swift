import KVOLiteLocking
import Testing

@testable import KVOLite

/// Which changes of a followed relationship an element observation takes as they were made
/// (O(changed elements)) and which it reads again: the windows from a change's prior
/// notification to its notification, without threads.
@Suite("Change windows of a followed relationship")
struct SerialObservationWindowsTests {
  typealias ChangeWindows = SerialObservationStateMachine<Int>.Windows
  static let me = ThreadIdentity(address: 0x10)
  static let other = ThreadIdentity(address: 0x20)

  /// Windows past the first change after the start, which is always read again.
  static func settled() -> ChangeWindows {
    var windows = ChangeWindows()
    var taken = false
    windows.willChange(on: me)
    taken = windows.didChange(on: me, canTakeAsMade: true)
    #expect(!taken)
    windows.didRead()
    #expect(!windows.isContended)
    return windows
  }

  @Test("the first change after the start is read again, the next ones are taken as made")
  func firstChangeReadAgain() {
    var windows = ChangeWindows()
    var taken = false
    #expect(windows.isContended)
    windows = Self.settled()
    for _ in 0..<3 {
      windows.willChange(on: Self.me)
      taken = windows.didChange(on: Self.me, canTakeAsMade: true)
      #expect(taken)
    }
    #expect(!windows.isContended)
  }

  @Test("a setting, or elements that are not all observable, is read again, uncontended")
  func settingReadAgain() {
    var windows = Self.settled()
    var taken = false
    windows.willChange(on: Self.me)
    taken = windows.didChange(on: Self.me, canTakeAsMade: false)
    #expect(!taken)
    #expect(!windows.isContended)
    windows.didRead()
    windows.willChange(on: Self.me)
    taken = windows.didChange(on: Self.me, canTakeAsMade: true)
    #expect(taken)
  }

  @Test(
    "windows open on two threads at once: both changes, and every one until all close, are read again"
  )
  func overlappingWindows() {
    var windows = Self.settled()
    var taken = false
    windows.willChange(on: Self.me)
    windows.willChange(on: Self.other)
    #expect(windows.isContended)
    // The second change's notification overtakes the first one's.
    taken = windows.didChange(on: Self.other, canTakeAsMade: true)
    #expect(!taken)
    windows.didRead()
    #expect(windows.isContended)
    taken = windows.didChange(on: Self.me, canTakeAsMade: true)
    #expect(!taken)
    #expect(windows.isContended)
    windows.didRead()
    #expect(!windows.isContended)
    windows.willChange(on: Self.other)
    taken = windows.didChange(on: Self.other, canTakeAsMade: true)
    #expect(taken)
  }

  @Test("a change made while another one's reading is in progress is read again")
  func changeDuringReading() {
    var windows = Self.settled()
    var taken = false
    windows.willChange(on: Self.me)
    taken = windows.didChange(on: Self.me, canTakeAsMade: false)
    #expect(!taken)
    // Reading: another thread changes the relationship (the reading may see it).
    windows.willChange(on: Self.other)
    #expect(windows.isContended)
    windows.didRead()
    #expect(windows.isContended)
    taken = windows.didChange(on: Self.other, canTakeAsMade: true)
    #expect(!taken)
    windows.didRead()
    #expect(!windows.isContended)
  }

  @Test("a change made inside another one's notification (same thread) is read again")
  func nestedWindows() {
    var windows = Self.settled()
    var taken = false
    windows.willChange(on: Self.me)
    windows.willChange(on: Self.me)
    #expect(windows.isContended)
    taken = windows.didChange(on: Self.me, canTakeAsMade: true)
    #expect(!taken)
    windows.didRead()
    taken = windows.didChange(on: Self.me, canTakeAsMade: true)
    #expect(!taken)
    windows.didRead()
    #expect(!windows.isContended)
  }

  @Test("a notification without a prior one on its thread (in flight at the start) is read again")
  func changeInFlight() {
    var windows = Self.settled()
    var taken = false
    taken = windows.didChange(on: Self.me, canTakeAsMade: true)
    #expect(!taken)
    windows.didRead()
    #expect(!windows.isContended)
    // One window open on another thread: the change in flight does not close it.
    windows.willChange(on: Self.other)
    taken = windows.didChange(on: Self.me, canTakeAsMade: true)
    #expect(!taken)
    #expect(windows.isContended)
    windows.didRead()
    taken = windows.didChange(on: Self.other, canTakeAsMade: true)
    #expect(!taken)
    windows.didRead()
    #expect(!windows.isContended)
  }

  @Test("a prior notification whose change never comes leaves every later change read again")
  func windowLeftOpen() {
    var windows = Self.settled()
    var taken = false
    windows.willChange(on: Self.me)  // The mutation then failed: no notification.
    for _ in 0..<3 {
      windows.willChange(on: Self.other)
      taken = windows.didChange(on: Self.other, canTakeAsMade: true)
      #expect(!taken)
      windows.didRead()
      #expect(windows.isContended)
    }
  }

  @Test("a change that did not fit the members makes the next one read again")
  func lostTrack() {
    var windows = Self.settled()
    var taken = false
    windows.lostTrack()
    windows.willChange(on: Self.me)
    taken = windows.didChange(on: Self.me, canTakeAsMade: true)
    #expect(!taken)
    windows.didRead()
    windows.willChange(on: Self.me)
    taken = windows.didChange(on: Self.me, canTakeAsMade: true)
    #expect(taken)
  }
}
