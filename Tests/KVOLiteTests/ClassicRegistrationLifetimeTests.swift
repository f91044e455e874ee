import KVOLiteTestSupport
import Testing

@testable import KVOLite

/// A classic observer that ignores what it receives.
private final class Silent: KeyValueObserver {
  func observeValue(
    forKeyPath keyPath: String, of object: any KeyValueObservable, change: KeyValueChange<Any?>,
    context: UnsafeMutableRawPointer?
  ) {}
}

/// What a classic registration keeps alive: nothing once it is removed or its object is gone.
/// (A registration holds its token; its handler held the registration strongly, a cycle that
/// kept every registration, its token and its object's registrar context forever: the address
/// sanitizer's leak check found it in the classic observers' stress scenarios.)
@Suite("Classic registrations' lifetime")
struct ClassicRegistrationLifetimeTests {
  /// The registrar context of a person observed by `register`, once the person is gone.
  private func contextLeftBehind(_ register: (Person, Silent) throws -> Void) throws
    -> RegistrarContext?
  {
    let observer = Silent()
    weak var context: RegistrarContext?
    do {
      let person = Person()
      try register(person, observer)
      context = person.observationRegistrar.existingContext
      #expect(context != nil)
      person.firstName = "Ann"
    }
    return context
  }

  @Test("a removed registration lets go of everything: the object's context goes with it")
  func removed() throws {
    let left = try contextLeftBehind { person, observer in
      try person.addObserver(observer, forKeyPath: "firstName", options: [.new])
      person.removeObserver(observer, forKeyPath: "firstName")
    }
    #expect(left == nil)
  }

  @Test("a registration still there when its object goes is let go of with it")
  func objectGone() throws {
    let left = try contextLeftBehind { person, observer in
      try person.addObserver(observer, forKeyPath: "firstName", options: [.new, .old])
      try person.addObserver(observer, forKeyPath: "lastName", options: [], context: nil)
    }
    #expect(left == nil)
  }
}
