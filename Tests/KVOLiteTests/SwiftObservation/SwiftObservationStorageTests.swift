import Observation
import Testing

@testable import KVOLite

/// Where Swift's registrar of a model lives, and when it is made.
@Suite("Swift Observation's registrar, made on the first tracked read")
struct SwiftObservationStorageTests {
  @Test("a model that is not Observable makes nothing when read and set")
  func untracked() {
    let shelf = UntrackedShelf()
    shelf.title = shelf.title + "!"
    #expect(shelf.observationRegistrar.existingContext == nil)
  }

  @Test("an Observable model makes Swift's registrar on its first read, once, and not on a set")
  func tracked() {
    let shelf = TrackedShelf()
    shelf.title = "Poetry"
    #expect(shelf.observationRegistrar.existingContext == nil)
    _ = shelf.title
    let box = shelf.observationRegistrar.existingContext?.existingSwiftObservationBox
    #expect(box != nil)
    _ = shelf.books
    #expect(shelf.observationRegistrar.existingContext?.existingSwiftObservationBox === box)
  }
}
