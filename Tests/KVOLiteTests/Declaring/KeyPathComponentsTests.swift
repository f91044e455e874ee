import Testing

@testable import KVOLite

private class Base {
  var name = ""
  var upper: String { name.uppercased() }
  var other = ""
  var child = Child()
}

private final class Derived: Base {
  override var upper: String { "" }
}

private final class Child {
  var leaf = 0
  subscript(index: Int) -> Int { index }
}

private struct Plain {
  var count = 0
  var optional: Inner? = nil
}

private struct Inner {
  var count = 0
}

/// Key paths compared through the properties they go through, whatever their roots: how a
/// typed key path rooted at a subclass names a superclass's key.
@Suite("Key path components")
struct KeyPathComponentsTests {
  @Test("the same inherited property from two roots goes through the same component")
  func inheritedProperty() {
    #expect(KeyPathComponents.samePath(\Base.name, \Derived.name))
    #expect(KeyPathComponents.samePath(\Base.child.leaf, \Derived.child.leaf))
  }

  @Test("another property, an override, or another value type is another path")
  func differentPaths() {
    #expect(!KeyPathComponents.samePath(\Base.name, \Derived.other))
    #expect(!KeyPathComponents.samePath(\Base.upper, \Derived.upper))
    #expect(!KeyPathComponents.samePath(\Base.name, \Base.upper))
    #expect(!KeyPathComponents.samePath(\Base.child.leaf, \Base.child))
  }

  @Test("stored, optional and subscript components are read; their arguments told apart")
  func componentKinds() throws {
    let chain = try #require(KeyPathComponents.identities(of: \Plain.optional?.count))
    // A stored property, the optional chain, a stored property, the wrap of the result.
    #expect(chain.map(\.kind) == [1, 4, 1, 4])
    #expect(KeyPathComponents.samePath(\Child[1], \Child[1]))
    #expect(!KeyPathComponents.samePath(\Child[1], \Child[2]))
  }
}
