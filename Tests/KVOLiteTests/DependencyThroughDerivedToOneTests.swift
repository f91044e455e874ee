import KVOLite
import KVOLiteTestSupport
import Testing

/// The end of the chain: a value.
private final class Leaf: KeyValueObservable, @unchecked Sendable {
  let observationRegistrar = ObservationRegistrar()
  static let observableKeys: ObservableKeys<Leaf> = [.attribute("value", \.value)]
  @Observed var value: Int
  init(_ value: Int) { self.value = value }
}

/// A node holding a leaf.
private final class Node: KeyValueObservable, @unchecked Sendable {
  let observationRegistrar = ObservationRegistrar()
  static let observableKeys: ObservableKeys<Node> = [.toOne("leaf", \.leaf)]
  @Observed var leaf: Leaf
  init(_ value: Int) { leaf = Leaf(value) }
}

/// A tree whose `selected` node is derived (from `nodes` and `selection`), and whose `label` is
/// derived through it: `label` is affected by `selected.leaf.value`.
private final class Tree: KeyValueObservable, @unchecked Sendable {
  let observationRegistrar = ObservationRegistrar()
  static let observableKeys: ObservableKeys<Tree> = [
    .toMany("nodes", \.nodes),
    .attribute("selection", \.selection),
    .derived("selected", \.selected, affectedBy: ["nodes", "selection"]),
    .derived("label", \.label, affectedBy: ["selected.leaf.value"]),
  ]
  @Observed var nodes: [Node] = []
  @Observed var selection: Int? = nil
  var selected: Node? { selection.flatMap { nodes.indices.contains($0) ? nodes[$0] : nil } }
  var label: String { selected.map { "value \($0.leaf.value)" } ?? "none" }
}

/// Apple: a dependency's key path is observed as a key path, so one that goes through a derived
/// to-one key follows it as observing that key path directly does.
@Suite("Dependencies through a derived to-one key")
struct DependencyThroughDerivedToOneTests {
  /// Observes `label` by string key path, recording each new value.
  private static func watch(_ tree: Tree) throws -> (Log<String>, ObservationToken) {
    let log = Log<String>()
    let token = try tree.observe("label", options: [.new]) { change in
      log.append(change.newValue.flatMap { $0 as? String } ?? "?")
    }
    return (log, token)
  }

  @Test(
    "replacing the selected object notifies; the new object's changes notify; the old one's do not")
  func followsTheDerivedObject() throws {
    let tree = Tree()
    let (first, second) = (Node(1), Node(2))
    tree.nodes = [first, second]
    tree.selection = 0
    let (log, token) = try Self.watch(tree)
    first.leaf.value = 10
    tree.selection = 1
    second.leaf.value = 20
    first.leaf.value = 11  // detached: nothing
    second.leaf = Leaf(21)
    #expect(log.all == ["value 10", "value 2", "value 20", "value 21"])
    token.invalidate()
  }

  @Test("nil at registration: the object that appears later is connected")
  func connectsWhenItAppears() throws {
    let tree = Tree()
    let node = Node(5)
    let (log, token) = try Self.watch(tree)
    tree.nodes = [node]
    tree.selection = 0
    node.leaf.value = 6
    tree.selection = nil
    node.leaf.value = 7  // detached again: nothing
    #expect(log.all == ["none", "value 5", "value 6", "none"])
    token.invalidate()
  }

  @Test("the dependency behaves as observing selected.leaf.value directly does")
  func sameAsTheDirectPath() throws {
    let tree = Tree()
    let nodes = [Node(1), Node(2)]
    tree.nodes = nodes
    let direct = Log<String>()
    let token = try tree.observe("selected.leaf.value", options: [.new]) { change in
      direct.append("\(change.newValue.flatMap { $0 as? Int }.map(String.init) ?? "nil")")
    }
    let (log, labels) = try Self.watch(tree)
    tree.selection = 1
    nodes[1].leaf.value = 3
    nodes[0].leaf.value = 4
    #expect(direct.all == ["2", "3"])
    #expect(log.all == ["value 2", "value 3"])
    token.invalidate()
    labels.invalidate()
  }
}
