/// Why a package edit was refused. Every case names the field and what was expected, as one
/// sentence without a trailing period.
public enum PackageError: Error, Equatable, Sendable, CustomStringConvertible {
  /// A content's title is empty (or only white space).
  case emptyTitle
  /// A content's quantity is below 1.
  case quantityTooSmall(Int)
  /// A content's weight is negative, infinite or not a number.
  case invalidWeight(Double)
  /// There is no content at `index` among `count`.
  case noContent(index: Int, count: Int)

  public var description: String {
    switch self {
    case .emptyTitle:
      return "a content's title must not be empty"
    case .quantityTooSmall(let quantity):
      return "a content's quantity must be at least 1, not \(quantity)"
    case .invalidWeight(let weight):
      return "a content's weight must be a finite number of kilograms, 0 or more, not \(weight)"
    case .noContent(let index, let count):
      return "there is no content at index \(index) (the package has \(count))"
    }
  }
}
