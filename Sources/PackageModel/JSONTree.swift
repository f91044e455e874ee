/// A JSON document parsed into the places of its values: which bytes of its UTF-8 text each
/// object, member, array element and scalar occupies.
///
/// A save edits a file by replacing the bytes of the values it changes and leaving every other
/// byte as it was (see ``PackageFileSnapshot``), so that fields this version does not know,
/// key order, spacing and number spellings survive. Only the structure is kept: scalars are
/// ranges of text, decoded when a caller asks.
struct JSONTree: Sendable {
  /// One value and where it is in ``JSONTree/text``.
  struct Node: Sendable {
    enum Kind: Sendable {
      case object([Member])
      case array([Node])
      case scalar
    }

    /// The bytes of the value, from its first byte to its last.
    let range: Range<Int>
    let kind: Kind

    /// The value of the member `key`, if this is an object that has it.
    func member(_ key: String) -> Node? {
      guard case .object(let members) = kind else { return nil }
      return members.first { $0.key == key }?.value
    }

    /// The elements, if this is an array.
    var elements: [Node]? {
      guard case .array(let elements) = kind else { return nil }
      return elements
    }
  }

  /// A member of an object: its key, decoded, and its value.
  struct Member: Sendable {
    let key: String
    let value: Node
  }

  /// The UTF-8 text.
  let text: [UInt8]
  /// The top-level value.
  let root: Node

  /// How deep objects and arrays may nest (as ``JSONKeyCheck/maximumDepth``).
  private static let maximumDepth = 64

  /// Parses `text`; `nil` if it is not one JSON value (or nests too deep).
  init?(_ text: [UInt8]) {
    var parser = Parser(text: text)
    guard let root = parser.value(depth: 0) else { return nil }
    parser.skipSpace()
    guard parser.index == text.count else { return nil }
    self.text = text
    self.root = root
  }

  /// The text of `node`.
  func text(of node: Node) -> ArraySlice<UInt8> { text[node.range] }

  private struct Parser {
    let text: [UInt8]
    var index = 0

    init(text: [UInt8]) { self.text = text }

    mutating func skipSpace() {
      while index < text.count, [0x20, 0x09, 0x0A, 0x0D].contains(text[index]) { index += 1 }
    }

    private mutating func take(_ byte: UInt8) -> Bool {
      skipSpace()
      guard index < text.count, text[index] == byte else { return false }
      index += 1
      return true
    }

    mutating func value(depth: Int) -> Node? {
      skipSpace()
      guard index < text.count, depth <= JSONTree.maximumDepth else { return nil }
      let start = index
      switch text[index] {
      case UInt8(ascii: "{"):
        index += 1
        var members: [Member] = []
        if !take(UInt8(ascii: "}")) {
          repeat {
            skipSpace()
            let keyStart = index
            guard skipString(), let key = JSONTree.decodeString(text[keyStart..<index]),
              take(UInt8(ascii: ":")), let value = value(depth: depth + 1)
            else { return nil }
            members.append(Member(key: key, value: value))
          } while take(UInt8(ascii: ","))
          guard take(UInt8(ascii: "}")) else { return nil }
        }
        return Node(range: start..<index, kind: .object(members))
      case UInt8(ascii: "["):
        index += 1
        var elements: [Node] = []
        if !take(UInt8(ascii: "]")) {
          repeat {
            guard let element = value(depth: depth + 1) else { return nil }
            elements.append(element)
          } while take(UInt8(ascii: ","))
          guard take(UInt8(ascii: "]")) else { return nil }
        }
        return Node(range: start..<index, kind: .array(elements))
      case UInt8(ascii: "\""):
        guard skipString() else { return nil }
        return Node(range: start..<index, kind: .scalar)
      default:
        while index < text.count, !"{}[],: \t\r\n\"".utf8.contains(text[index]) { index += 1 }
        return index > start ? Node(range: start..<index, kind: .scalar) : nil
      }
    }

    /// Passes a string, with its quotes; `false` if it does not end.
    private mutating func skipString() -> Bool {
      guard index < text.count, text[index] == UInt8(ascii: "\"") else { return false }
      index += 1
      while index < text.count {
        switch text[index] {
        case UInt8(ascii: "\""):
          index += 1
          return true
        case UInt8(ascii: "\\"): index += 2
        default: index += 1
        }
      }
      return false
    }
  }
}
