import Synchronization

/// A unique identity for subscribers and subscriptions, as in Combine.
public struct CombineIdentifier: Hashable, Sendable, CustomStringConvertible {
  private let value: UInt

  /// A new, unique identifier (counted down from the top, away from object addresses).
  public init() {
    value = UInt.max - combineIdentifierCounter.add(1, ordering: .relaxed).newValue
  }

  /// The identifier of an object.
  public init(_ object: AnyObject) {
    value = UInt(bitPattern: ObjectIdentifier(object).hashValue)
  }

  /// The identifier in hexadecimal, as Combine prints it.
  public var description: String { "0x" + String(value, radix: 16) }
}

/// The source of fresh ``CombineIdentifier``s.
private let combineIdentifierCounter = Atomic<UInt>(0)
