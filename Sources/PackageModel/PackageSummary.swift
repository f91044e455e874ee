/// The one-line, human-readable summary of a package:
///
///     Ann Smith, 1 Main St · from Bob Jones · 2 items (3 pcs, 1.5 kg): Books ×2, Mug
///
/// Recipient name and street, sender name, number of content lines, total pieces and total
/// weight (quantity × weight of each line), then the lines. A missing name reads `(no name)`;
/// a missing street is left out; an empty package reads `no items`.
public struct PackageSummary: Sendable, Equatable {
  /// The summary line.
  public let text: String

  /// Summarizes `package` as it is now.
  public init(_ package: Package) {
    let recipient = package.recipient
    let contents = package.contents
    var recipientPart = PackageSummary.name(recipient.fullName)
    let street = recipient.postalAddress.street
    if !street.isEmpty { recipientPart += ", " + street }
    let senderPart = "from " + PackageSummary.name(package.sender.fullName)
    let itemsPart: String
    if contents.isEmpty {
      itemsPart = "no items"
    } else {
      let pieces = contents.reduce(0) { $0 + $1.quantity }
      let weight = contents.reduce(0) { $0 + $1.totalWeight }
      let lines = contents.map(\.description).joined(separator: ", ")
      itemsPart =
        "\(contents.count) item\(contents.count == 1 ? "" : "s") "
        + "(\(pieces) pc\(pieces == 1 ? "" : "s"), \(PackageSummary.kilograms(weight)) kg): \(lines)"
    }
    text = [recipientPart, senderPart, itemsPart].joined(separator: " · ")
  }

  private static func name(_ name: String) -> String {
    name.isEmpty ? "(no name)" : name
  }

  /// A weight with at most three decimals and no trailing zeros: `1.5`, `2`, `0.125`.
  static func kilograms(_ value: Double) -> String {
    let grams = (value * 1000).rounded()
    let whole = Int(grams / 1000)
    let fraction = Int(grams.truncatingRemainder(dividingBy: 1000))
    guard fraction != 0 else { return "\(whole)" }
    var decimals = String(fraction)
    decimals = String(repeating: "0", count: 3 - decimals.count) + decimals
    while decimals.hasSuffix("0") { decimals.removeLast() }
    return "\(whole).\(decimals)"
  }
}
