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
  ///
  /// The view model rebuilds the line on every change of its inputs, so the text is written
  /// into one UTF-8 buffer and made a `String` once (joining and interpolating the parts cost
  /// several times as much, in small intermediate strings).
  public init(
    recipient: String, street: String, sender: String, totals: Totals, firstItems: [PackageContent]
  ) {
    var text = SummaryText()
    text.append(PackageSummary.name(recipient))
    if !street.isEmpty {
      text.append(", ")
      text.append(street)
    }
    text.append(" · from ")
    text.append(PackageSummary.name(sender))
    text.append(" · ")
    if totals.lines == 0 {
      text.append("no items")
    } else {
      text.append(totals.lines)
      text.append(totals.lines == 1 ? " item (" : " items (")
      text.append(totals.pieces)
      text.append(totals.pieces == 1 ? " pc, " : " pcs, ")
      text.appendKilograms(grams: totals.grams)
      text.append(" kg): ")
      for (index, item) in firstItems.prefix(PackageSummary.shownItems).enumerated() {
        if index > 0 { text.append(", ") }
        text.append(item)
      }
      if totals.lines > PackageSummary.shownItems {
        text.append(", +")
        text.append(totals.lines - PackageSummary.shownItems)
        text.append(" more")
      }
    }
    self.text = text.string
  }

  /// What the summary counts of the contents: lines, pieces and grams, in exact integer
  /// arithmetic (so the totals are the same after any sequence of adds and removes).
  ///
  /// The totals have limits (``maximumPieces``, ``maximumGrams``) far above any real package,
  /// so that they can never overflow: the view model refuses an edit that would pass them, and
  /// a file that passes them is invalid. Contents that pass them anyway (set directly through
  /// the model) are counted up to the limits.
  public struct Totals: Sendable, Equatable {
    /// The most pieces a package may hold: 10¹².
    public static let maximumPieces = 1_000_000_000_000
    /// The most a package may weigh, in grams: 10¹⁵ (a billion tonnes).
    public static let maximumGrams = 1_000_000_000_000_000

    /// The number of content lines.
    public private(set) var lines = 0
    /// The number of pieces, summed over the lines (at most ``maximumPieces``).
    public private(set) var pieces = 0
    /// The total weight in grams, exact (at most ``maximumGrams``).
    public private(set) var grams = 0

    /// The total weight in kilograms.
    public var weight: Double { Double(grams) / 1000 }

    /// No contents.
    public init() {}

    /// The totals of `contents`, up to the limits.
    public init(_ contents: [PackageContent]) {
      for content in contents {
        lines += 1
        pieces = min(pieces + content.quantity, Totals.maximumPieces)
        grams = min(grams + content.totalGrams, Totals.maximumGrams)
      }
    }

    /// The totals of `contents`, or `nil` if they would pass the limits.
    public static func checked(_ contents: [PackageContent]) -> Totals? {
      Totals().adding(contents)
    }

    /// These totals with `contents` counted in, or `nil` if they would pass the limits.
    public func adding(_ contents: [PackageContent]) -> Totals? {
      var result = self
      for content in contents {
        // Each term is at most its limit, so the sums cannot overflow before the check.
        result.lines += 1
        result.pieces += content.quantity
        result.grams += content.totalGrams
        guard result.pieces <= Totals.maximumPieces, result.grams <= Totals.maximumGrams else {
          return nil
        }
      }
      return result
    }

    /// These totals with `contents` (counted in before) counted out, or `nil` if they were not
    /// all counted in.
    public func removing(_ contents: [PackageContent]) -> Totals? {
      var result = self
      for content in contents {
        result.lines -= 1
        result.pieces -= content.quantity
        result.grams -= content.totalGrams
      }
      guard result.lines >= 0, result.pieces >= 0, result.grams >= 0 else { return nil }
      return result
    }
  }

  private static func name(_ name: String) -> String {
    name.isEmpty ? "(no name)" : name
  }

}
