import KVOLite

/// One line of a package's contents: what it is, how many, how heavy. Immutable: contents are
/// added and removed, never edited in place.
///
/// Its keys (`title`, `quantity`, `weight`) are readable by key-value coding
/// (`contents.0.title`) and never change. Thread-safe (immutable).
public final class PackageContent: KeyValueObservable, Sendable, Equatable, CustomStringConvertible
{
  /// The registrar that keeps this object's observations (``/KVOLite/KeyValueObservable``).
  public let observationRegistrar = ObservationRegistrar()
  /// The keys, read-only attributes: immutable stored properties are not `@Observed`, so they
  /// are declared (key-value coding reads them; they never change).
  public static let observableKeys: ObservableKeys<PackageContent> = [
    .attribute("title", \.title),
    .attribute("quantity", \.quantity),
    .attribute("weight", \.weight),
  ]

  /// The largest quantity of one line: a million pieces.
  public static let maximumQuantity = 1_000_000
  /// The largest weight of one piece, in kilograms: a thousand tonnes.
  public static let maximumWeight = 1_000_000.0

  /// What the item is, never empty.
  public let title: String
  /// How many pieces: 1 through ``maximumQuantity``.
  public let quantity: Int
  /// The weight of one piece in kilograms: 0 through ``maximumWeight``, kept to the gram
  /// (``grams`` is exact).
  public let weight: Double
  /// The weight of one piece in whole grams (exact, so that totals add up exactly).
  public let grams: Int

  /// Creates a content line, checking every field.
  /// - Throws: ``PackageError`` for an empty title, a quantity outside
  ///   1...``maximumQuantity``, or a weight that is not a number of kilograms from 0 to
  ///   ``maximumWeight`` with at most three decimals (whole grams). `-0` is 0.
  public init(title: String, quantity: Int = 1, weight: Double = 0) throws(PackageError) {
    guard !title.allSatisfy(\.isWhitespace) else { throw .emptyTitle }
    guard quantity >= 1 else { throw .quantityTooSmall(quantity) }
    guard quantity <= PackageContent.maximumQuantity else { throw .quantityTooLarge(quantity) }
    guard weight.isFinite, weight >= 0, weight <= PackageContent.maximumWeight else {
      throw .invalidWeight(weight)
    }
    let grams = (weight * 1000).rounded()
    // Decimal fractions are inexact in binary (1.015 kg × 1000 is 1014.9999999999999 g): allow
    // that much error, relative to the grams, and none at all around 0.
    guard abs(weight * 1000 - grams) <= grams * 1e-12 else { throw .weightNotWholeGrams(weight) }
    self.title = title
    self.quantity = quantity
    self.grams = Int(grams)
    self.weight = Double(self.grams) / 1000
  }

  /// The total weight of the line in kilograms: quantity × weight.
  public var totalWeight: Double { Double(totalGrams) / 1000 }

  /// The total weight of the line in grams (at most 10¹⁵, so it cannot overflow).
  public var totalGrams: Int { quantity * grams }

  /// `Books ×2`, or `Mug` for a single piece.
  public var description: String {
    var text = SummaryText()
    text.append(self)
    return text.string
  }

  /// Whether the two are equal.
  public static func == (lhs: PackageContent, rhs: PackageContent) -> Bool {
    lhs.title == rhs.title && lhs.quantity == rhs.quantity && lhs.grams == rhs.grams
  }
}
