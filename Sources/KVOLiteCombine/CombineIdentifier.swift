import Synchronization

/// A unique identity for subscribers and subscriptions, as in Combine.
///
/// The identifier of an object is its address (as Combine's is); a fresh identifier comes from
/// a counter (counted down from the top, away from object addresses). Described in hexadecimal,
/// as Combine describes it; its mirror shows one child, `rawValue`, a `UInt64`.
public struct CombineIdentifier: Hashable, Sendable, CustomStringConvertible {
  private let rawValue: UInt64

  /// A new, unique identifier.
  public init() {
    rawValue = UInt64.max - combineIdentifierCounter.add(1, ordering: .relaxed).newValue
  }

  /// The identifier of an object: its address.
  public init(_ object: AnyObject) {
    rawValue = UInt64(UInt(bitPattern: ObjectIdentifier(object)))
  }

  /// The identifier in hexadecimal, as Combine prints it.
  public var description: String { "0x" + String(rawValue, radix: 16) }
}

/// The source of fresh ``CombineIdentifier``s.
private let combineIdentifierCounter = Atomic<UInt64>(0)
