/// The one-line, human-readable summary of a package:
///
///     Ann Smith, 1 Main St · from Bob Jones · 2 items (3 pcs, 1.5 kg): Books ×2, Mug
///
/// Recipient name and street, sender name, number of content lines, total pieces and total
/// weight (quantity × weight of each line), then the lines: the first ``shownItems``, and
/// `+N more` for the rest, so that the line stays a line. A missing name reads `(no name)`; a
/// missing street is left out; an empty package reads `no items`.
public struct PackageSummary: Sendable, Equatable {
  /// How many content lines the summary names.
  public static let shownItems = 5

  /// The summary line.
  public let text: String

  /// Summarizes `package` as it is now (reads every content line: O(n)).
  public init(_ package: Package) {
    let contents = package.contents
    self.init(
      recipient: package.recipient.fullName, street: package.recipient.postalAddress.street,
      sender: package.sender.fullName,
      totals: Totals(contents),
      firstItems: Array(contents.prefix(PackageSummary.shownItems)))
  }

  /// Summarizes from parts, for callers that keep the totals up to date incrementally.
  public init(
    recipient: String, street: String, sender: String, totals: Totals, firstItems: [PackageContent]
  ) {
    var recipientPart = PackageSummary.name(recipient)
    if !street.isEmpty { recipientPart += ", " + street }
    let senderPart = "from " + PackageSummary.name(sender)
    let itemsPart: String
    if totals.lines == 0 {
      itemsPart = "no items"
    } else {
      var lines = firstItems.prefix(PackageSummary.shownItems).map(\.description).joined(separator: ", ")
      if totals.lines > PackageSummary.shownItems {
        lines += ", +\(totals.lines - PackageSummary.shownItems) more"
      }
      itemsPart =
        "\(totals.lines) item\(totals.lines == 1 ? "" : "s") "
        + "(\(totals.pieces) pc\(totals.pieces == 1 ? "" : "s"), "
        + "\(PackageSummary.kilograms(totals.weight)) kg): \(lines)"
    }
    text = [recipientPart, senderPart, itemsPart].joined(separator: " · ")
  }

  /// What the summary counts of the contents.
  public struct Totals: Sendable, Equatable {
    public var lines = 0
    public var pieces = 0
    public var weight = 0.0

    public init() {}

    /// The totals of `contents`.
    public init(_ contents: [PackageContent]) {
      add(contents)
    }

    /// Counts `contents` in.
    public mutating func add(_ contents: [PackageContent]) {
      for content in contents {
        lines += 1
        pieces += content.quantity
        weight += content.totalWeight
      }
    }

    /// Counts `contents` out.
    public mutating func remove(_ contents: [PackageContent]) {
      for content in contents {
        lines -= 1
        pieces -= content.quantity
        weight -= content.totalWeight
      }
      if lines == 0 { weight = 0 }  // No drift from floating-point subtraction.
    }
  }

  private static func name(_ name: String) -> String {
    name.isEmpty ? "(no name)" : name
  }

  /// A weight with at most three decimals and no trailing zeros: `1.5`, `2`, `0.125`.
  static func kilograms(_ value: Double) -> String {
    let grams = max(0, (value * 1000).rounded())
    let whole = Int(grams / 1000)
    let fraction = Int(grams.truncatingRemainder(dividingBy: 1000))
    guard fraction != 0 else { return "\(whole)" }
    var decimals = String(fraction)
    decimals = String(repeating: "0", count: 3 - decimals.count) + decimals
    while decimals.hasSuffix("0") { decimals.removeLast() }
    return "\(whole).\(decimals)"
  }
}
