import KVOLite

/// One line of a package's contents: what it is, how many, how heavy. Immutable: contents are
/// added and removed, never edited in place.
///
/// Its keys (`title`, `quantity`, `weight`) are readable by key-value coding
/// (`contents.0.title`) and never change. Thread-safe (immutable).
public final class PackageContent: KeyValueObservable, Sendable, Equatable, CustomStringConvertible {
  public let observationRegistrar = ObservationRegistrar()
  public static let observableKeys: ObservableKeys<PackageContent> = [
    .attribute("title", \.title),
    .attribute("quantity", \.quantity),
    .attribute("weight", \.weight),
  ]

  /// What the item is, never empty.
  public let title: String
  /// How many pieces, at least 1.
  public let quantity: Int
  /// The weight of one piece in kilograms: finite, 0 or more.
  public let weight: Double

  /// Creates a content line, checking every field.
  /// - Throws: ``PackageError`` for an empty title, a quantity below 1, or a negative,
  ///   infinite or NaN weight.
  public init(title: String, quantity: Int = 1, weight: Double = 0) throws(PackageError) {
    guard !title.allSatisfy(\.isWhitespace) else { throw .emptyTitle }
    guard quantity >= 1 else { throw .quantityTooSmall(quantity) }
    guard weight.isFinite, weight >= 0 else { throw .invalidWeight(weight) }
    self.title = title
    self.quantity = quantity
    self.weight = weight
  }

  /// The total weight of the line: quantity × weight.
  public var totalWeight: Double { Double(quantity) * weight }

  /// `Books ×2`, or `Mug` for a single piece.
  public var description: String { quantity == 1 ? title : "\(title) ×\(quantity)" }

  public static func == (lhs: PackageContent, rhs: PackageContent) -> Bool {
    lhs.title == rhs.title && lhs.quantity == rhs.quantity && lhs.weight == rhs.weight
  }
}
