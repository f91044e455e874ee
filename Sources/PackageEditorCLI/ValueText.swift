import Foundation
import KVOLite
import PackageModel

/// How the editor prints values.
enum ValueText {
  /// A value as `get` prints it: strings raw (unless they hold a control character: then
  /// quoted, with escapes), `nil` as `nil`.
  static func raw(_ value: Any?) -> String {
    guard let value else { return "nil" }
    if let string = value as? String, !OneLineOutput.hasControl(string) { return string }
    return quoted(value)
  }

  /// A value as watches and `show` print it: strings quoted with escapes.
  static func quoted(_ value: Any?) -> String {
    switch value {
    case nil: return "nil"
    // Counts and quantities first: each `as` below is a runtime cast (the array and protocol
    // ones cost thousands of instructions), and `get contents.@count` is a common line.
    case let integer as Int: return integer.keyValueText
    case let string as String: return quote(string)
    case let content as PackageContent: return "\(content.title) ×\(content.quantity)"
    case let person as Person: return "Person(\(quote(person.fullName)))"
    case let address as PostalAddress: return "PostalAddress(\(quote(address.street)))"
    case let double as Double: return number(double)
    case let array as [Any]: return "[" + array.map { quoted($0) }.joined(separator: ", ") + "]"
    case let convertible as any KeyValueTextConvertible: return convertible.keyValueText
    case let value?: return String(describing: value)
    }
  }

  /// `"text"`, with `"`, `\` and control characters escaped.
  static func quote(_ string: String) -> String {
    // Most values need no escape: two passes over the bytes, then one string (escaping each
    // scalar made a string per character: the most expensive part of a `set` line).
    if !string.utf8.contains(where: { $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }),
      !OneLineOutput.hasControl(string)
    {
      return "\"" + string + "\""
    }
    var result = "\""
    for scalar in string.unicodeScalars {
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      default: result += OneLineOutput.escape(scalar) ?? String(scalar)
      }
    }
    return result + "\""
  }

  /// A number without a needless `.0`: `2`, `0.5`.
  static func number(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
  }

  /// One watch notification: `recipient.firstName: setting "A" -> "Ann"`,
  /// `contents: insertion [2] new [Lamp ×1]`, `recipient.firstName: prior setting "A"`.
  static func change(_ keyPath: String, _ change: KeyValueChange<Any?>) -> String {
    var parts = [keyPath + ":", change.isPrior ? "prior \(change.kind)" : "\(change.kind)"]
    if let indexes = change.indexes {
      parts.append("[" + indexes.map(String.init).joined(separator: ", ") + "]")
    }
    if change.kind == .setting && !change.isPrior {
      if let old = change.oldValue { parts.append(quoted(old)) }
      if change.oldValue != nil || change.newValue != nil { parts.append("->") }
      if let new = change.newValue { parts.append(quoted(new)) }
    } else {
      if let old = change.oldValue {
        parts.append(change.kind == .setting ? quoted(old) : "old " + quoted(old))
      }
      if let new = change.newValue { parts.append("new " + quoted(new)) }
    }
    return parts.joined(separator: " ")
  }
}
