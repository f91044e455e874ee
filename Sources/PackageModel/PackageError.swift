/// Why a package edit was refused. Every case names the field and what was expected, as one
/// sentence without a trailing period.
public enum PackageError: Error, Equatable, Sendable, CustomStringConvertible {
  /// A content's title is empty (or only white space).
  case emptyTitle
  /// A content's quantity is below 1.
  case quantityTooSmall(Int)
  /// A content's quantity is above ``PackageContent/maximumQuantity``.
  case quantityTooLarge(Int)
  /// A content's weight is negative, above ``PackageContent/maximumWeight``, infinite or not a
  /// number.
  case invalidWeight(Double)
  /// A content's weight has a fraction of a gram (more than three decimals).
  case weightNotWholeGrams(Double)
  /// The package's total pieces or total weight would pass
  /// ``PackageSummary/Totals/maximumPieces`` or ``PackageSummary/Totals/maximumGrams``.
  case totalsTooLarge
  /// There is no content at `index` among `count`.
  case noContent(index: Int, count: Int)

  /// A readable description, as printed.
  public var description: String {
    switch self {
    case .emptyTitle:
      return "a content's title must not be empty"
    case .quantityTooSmall(let quantity):
      return "a content's quantity must be at least 1, not \(quantity)"
    case .quantityTooLarge(let quantity):
      return
        "a content's quantity must be at most \(PackageContent.maximumQuantity), not \(quantity)"
    case .invalidWeight(let weight):
      return
        "a content's weight must be a number of kilograms from 0 to \(Int(PackageContent.maximumWeight)), not \(weight)"
    case .weightNotWholeGrams(let weight):
      return "a content's weight is kept to the gram (at most 3 decimals), not \(weight)"
    case .totalsTooLarge:
      return
        "the package's totals would pass their limits (\(PackageSummary.Totals.maximumPieces) pieces, \(PackageSummary.Totals.maximumGrams / 1000) kg)"
    case .noContent(let index, let count):
      return "there is no content at index \(index) (the package has \(count))"
    }
  }
}
