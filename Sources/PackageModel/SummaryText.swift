/// A line of text written as UTF-8 bytes and made a `String` once: how the summary line is
/// built on every change (appending to a `String` part by part, or interpolating, costs several
/// times as much in small intermediate strings).
struct SummaryText {
  private var bytes: [UInt8] = []

  init() {
    bytes.reserveCapacity(160)
  }

  /// The text written so far.
  var string: String { String(decoding: bytes, as: UTF8.self) }

  /// Appends `text`, copying its UTF-8 storage in one go where it has one (a native string,
  /// small or not, does).
  mutating func append(_ text: String) {
    let copied: Void? = text.utf8.withContiguousStorageIfAvailable { bytes.append(contentsOf: $0) }
    if copied == nil { bytes.append(contentsOf: text.utf8) }
  }

  /// Appends a literal part of the line (straight from the binary's constant bytes).
  mutating func append(_ literal: StaticString) {
    literal.withUTF8Buffer { bytes.append(contentsOf: $0) }
  }

  /// A whole number in decimal, with a leading `-` if it is negative.
  mutating func append(_ number: Int) {
    if number < 0 { bytes.append(UInt8(ascii: "-")) }
    appendDigits(number.magnitude, width: 1)
  }

  /// A content line as the summary names it: its title, then `×` and the quantity unless it is
  /// one (`Books ×2`, `Mug`).
  mutating func append(_ content: PackageContent) {
    append(content.title)
    guard content.quantity != 1 else { return }
    append(" ×")
    append(content.quantity)
  }

  /// A weight in grams as kilograms, with no trailing zeros: `1.5`, `2`, `0.125`.
  mutating func appendKilograms(grams: Int) {
    let (whole, fraction) = grams.quotientAndRemainder(dividingBy: 1000)
    if grams < 0 { bytes.append(UInt8(ascii: "-")) }
    appendDigits(whole.magnitude, width: 1)
    var decimals = fraction.magnitude
    guard decimals != 0 else { return }
    var width = 3
    while decimals % 10 == 0 {
      decimals /= 10
      width -= 1
    }
    bytes.append(UInt8(ascii: "."))
    appendDigits(decimals, width: width)
  }

  /// `value` in decimal, padded with leading zeros to at least `width` digits.
  private mutating func appendDigits(_ value: UInt, width: Int) {
    var count = 1
    var rest = value / 10
    while rest > 0 {
      count += 1
      rest /= 10
    }
    count = max(count, width)
    bytes.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: count))
    var remaining = value
    var index = bytes.count - 1
    while remaining > 0 {
      bytes[index] = UInt8(ascii: "0") + UInt8(remaining % 10)
      remaining /= 10
      index -= 1
    }
  }
}
