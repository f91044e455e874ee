/// The text of a JSON document as UTF-8, whatever encoding it came in.
///
/// JSON may be UTF-8 (with or without a byte-order mark), UTF-16 or UTF-32, either byte order,
/// told apart by the mark or by where the zero bytes of the first two characters fall (RFC
/// 4627). `JSONDecoder` accepts all of them; the checks that run before it (see
/// ``JSONKeyCheck``) read UTF-8, so a document is transcoded first and both read the same text.
enum JSONText {
  /// Why a document's bytes are not text.
  struct Failure: Error, Equatable {
    let reason: String
  }

  /// The document's text as UTF-8, without a byte-order mark.
  static func utf8(_ bytes: [UInt8]) throws(Failure) -> [UInt8] {
    let b = bytes  // Short, for the table below.
    func at(_ index: Int) -> UInt8? { index < b.count ? b[index] : nil }
    if b.starts(with: [0xEF, 0xBB, 0xBF]) { return Array(b.dropFirst(3)) }
    if b.starts(with: [0x00, 0x00, 0xFE, 0xFF]) {
      return try utf32(b.dropFirst(4), bigEndian: true)
    }
    if b.starts(with: [0xFF, 0xFE, 0x00, 0x00]) {
      return try utf32(b.dropFirst(4), bigEndian: false)
    }
    if b.starts(with: [0xFE, 0xFF]) { return try utf16(b.dropFirst(2), bigEndian: true) }
    if b.starts(with: [0xFF, 0xFE]) { return try utf16(b.dropFirst(2), bigEndian: false) }
    // No mark: the first character is ASCII, so its zero bytes tell the encoding.
    switch (at(0), at(1), at(2), at(3)) {
    case (0?, 0?, 0?, _?): return try utf32(b[...], bigEndian: true)
    case (_?, 0?, 0?, 0?): return try utf32(b[...], bigEndian: false)
    case (0?, _?, _, _): return try utf16(b[...], bigEndian: true)
    case (_?, 0?, _, _): return try utf16(b[...], bigEndian: false)
    default: return bytes
    }
  }

  private static func utf16(_ bytes: ArraySlice<UInt8>, bigEndian: Bool) throws(Failure) -> [UInt8]
  {
    guard bytes.count % 2 == 0 else { throw Failure(reason: "it is not valid UTF-16") }
    var units: [UInt16] = []
    units.reserveCapacity(bytes.count / 2)
    var index = bytes.startIndex
    while index < bytes.endIndex {
      let (high, low) = (UInt16(bytes[index]), UInt16(bytes[index + 1]))
      units.append(bigEndian ? high << 8 | low : low << 8 | high)
      index += 2
    }
    return try transcode(units, from: UTF16.self, name: "UTF-16")
  }

  private static func utf32(_ bytes: ArraySlice<UInt8>, bigEndian: Bool) throws(Failure) -> [UInt8]
  {
    guard bytes.count % 4 == 0 else { throw Failure(reason: "it is not valid UTF-32") }
    var units: [UInt32] = []
    units.reserveCapacity(bytes.count / 4)
    var index = bytes.startIndex
    while index < bytes.endIndex {
      var unit: UInt32 = 0
      for offset in 0..<4 {
        let byte = UInt32(bytes[index + (bigEndian ? offset : 3 - offset)])
        unit = unit << 8 | byte
      }
      units.append(unit)
      index += 4
    }
    return try transcode(units, from: UTF32.self, name: "UTF-32")
  }

  /// `units` as UTF-8; an invalid sequence (a lone surrogate) is an error, not a replacement.
  private static func transcode<Codec: UnicodeCodec>(
    _ units: [Codec.CodeUnit], from codec: Codec.Type, name: String
  ) throws(Failure) -> [UInt8] {
    var utf8: [UInt8] = []
    utf8.reserveCapacity(units.count)
    let failed = Swift.transcode(
      units.makeIterator(), from: codec, to: UTF8.self, stoppingOnError: true
    ) { utf8.append($0) }
    guard !failed else { throw Failure(reason: "it is not valid \(name)") }
    return utf8
  }
}
