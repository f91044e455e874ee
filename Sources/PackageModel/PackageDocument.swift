import Foundation

/// The file form of a package: versioned JSON (`"format": 1`), pretty-printed with sorted keys,
/// so that saving the same package twice gives the same bytes.
///
///     {
///       "contents" : [ { "quantity" : 2, "title" : "Books", "weight" : 0.5 } ],
///       "format" : 1,
///       "recipient" : { "firstName" : "Ann", … , "postalAddress" : { … } },
///       "sender" : { … }
///     }
public struct PackageDocument: Codable, Equatable, Sendable {
  /// The format this version writes and reads.
  public static let currentFormat = 1

  /// A postal address as the file stores it.
  public struct Address: Codable, Equatable, Sendable {
    /// The address lines, as ``PostalAddress`` has them.
    public var street, city, postalCode, country: String
  }

  /// A person as the file stores them: the recipient or the sender.
  public struct Party: Codable, Equatable, Sendable {
    /// The person's names.
    public var firstName, lastName: String
    /// The person's address.
    public var postalAddress: Address
  }

  /// One content line as the file stores it; the weight is per piece, in kilograms.
  public struct Content: Codable, Equatable, Sendable {
    /// What the line holds.
    public var title: String
    /// How many pieces (checked against ``PackageContent``'s limits when loaded).
    public var quantity: Int
    /// The weight of one piece, in kilograms.
    public var weight: Double

    /// A content line; nothing is checked until the document is loaded into a ``Package``.
    public init(title: String, quantity: Int, weight: Double) {
      self.title = title
      self.quantity = quantity
      self.weight = weight
    }

    /// Decodes a content line. The quantity is read as any JSON number and then checked, so
    /// that `1.5` or `1e30` is reported as an invalid quantity (a decoder reading an `Int`
    /// calls it "not valid JSON").
    public init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      title = try container.decode(String.self, forKey: .title)
      let number: Double
      do {
        number = try container.decode(Double.self, forKey: .quantity)
      } catch DecodingError.typeMismatch(_, let context) {
        throw DecodingError.typeMismatch(Int.self, context)
      }
      guard number == number.rounded(), let whole = Int(exactly: number) else {
        throw DecodingError.dataCorruptedError(
          forKey: .quantity, in: container,
          debugDescription: "a quantity must be a whole number, not \(number)")
      }
      quantity = whole
      weight = try container.decode(Double.self, forKey: .weight)
    }
  }

  /// The file format: ``currentFormat`` when written; other formats are refused when read.
  public var format: Int
  /// Who the package goes to.
  public var recipient: Party
  /// Who sends the package.
  public var sender: Party
  /// The content lines, in order.
  public var contents: [Content]

  /// The document of `package` as it is now.
  public init(_ package: Package) {
    format = PackageDocument.currentFormat
    recipient = Party(package.recipient)
    sender = Party(package.sender)
    contents = package.contents.map {
      Content(title: $0.title, quantity: $0.quantity, weight: $0.weight)
    }
  }

  /// The JSON bytes of the document.
  public func encoded() -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    // Encoding plain strings and finite numbers cannot fail.
    return try! encoder.encode(self) + Data("\n".utf8)
  }

  /// Decodes and validates a whole document; `path` names the file in errors.
  /// - Throws: ``PackageFileError`` naming the problem (not JSON, unsupported format, missing
  ///   field, wrong type, invalid value). A document that is not JSON is refused with the line
  ///   and column (in characters) of its first mistake and what was expected there:
  ///   `line 1, column 35: expected a key in double quotes, found "}"`.
  ///   A key given twice in one object is refused (JSON decoders keep one silently).
  ///   The checks read the document as UTF-8 whatever its encoding (a byte-order mark, UTF-16,
  ///   UTF-32), and the decoder reads the same UTF-8.
  public static func decode(_ data: Data, path: String) throws(PackageFileError) -> PackageDocument
  {
    try decode(Array(data), path: path)
  }

  /// Decodes and validates a whole document from its bytes; see ``decode(_:path:)-(Data,_)``.
  public static func decode(_ bytes: [UInt8], path: String) throws(PackageFileError)
    -> PackageDocument
  {
    let text: [UInt8]
    do {
      text = try JSONText.utf8(bytes)
    } catch {
      throw .notJSON(path: path, reason: error.reason)
    }
    switch JSONKeyCheck.check(text) {
    case .duplicateKey(let key, let object)?:
      throw .duplicateKey(path: path, field: object.isEmpty ? key : object + "." + key)
    case .tooDeep?:
      throw .notJSON(
        path: path, reason: "nested more than \(JSONKeyCheck.maximumDepth) levels deep")
    case .tooManyValues?:
      throw .notJSON(
        path: path,
        reason: "it holds more than \(JSONKeyCheck.maximumValues) values, more than any package")
    case nil: break
    }
    // Foundation's decoder says only that the data is not JSON, and decodes what it can before
    // it notices some mistakes: the first one is named by its place, and what was expected.
    if let mistake = JSONSyntaxCheck.firstMistake(in: text) {
      throw .notJSON(path: path, reason: mistake.description)
    }
    let data = Data(text)
    let decoder = JSONDecoder()
    do {
      let version = try decoder.decode(FormatOnly.self, from: data)
      guard version.format == currentFormat else {
        throw PackageFileError.unsupportedFormat(path: path, format: version.format)
      }
      let document = try decoder.decode(PackageDocument.self, from: data)
      try document.validate(path: path)
      return document
    } catch let error as PackageFileError {
      throw error
    } catch let error as DecodingError {
      throw PackageDocument.describe(error, path: path)
    } catch {
      throw .notJSON(path: path, reason: String(describing: error))
    }
  }

  /// Builds the model objects; the document must be valid.
  func makeParts() -> (recipient: Person, sender: Person, contents: [PackageContent]) {
    (
      recipient.person(), sender.person(),
      contents.map {
        try! PackageContent(title: $0.title, quantity: $0.quantity, weight: $0.weight)
      }
    )
  }

  private func validate(path: String) throws(PackageFileError) {
    var parts: [PackageContent] = []
    for (index, content) in contents.enumerated() {
      do {
        parts.append(
          try PackageContent(
            title: content.title, quantity: content.quantity, weight: content.weight))
      } catch {
        let field: String
        switch error {
        case .emptyTitle: field = "title"
        case .quantityTooSmall, .quantityTooLarge: field = "quantity"
        default: field = "weight"
        }
        throw .invalidValue(
          path: path, field: "contents[\(index)].\(field)", reason: error.description)
      }
    }
    guard PackageSummary.Totals.checked(parts) != nil else {
      throw .invalidValue(
        path: path, field: "contents", reason: PackageError.totalsTooLarge.description)
    }
  }

  private struct FormatOnly: Decodable {
    let format: Int
  }

  private static func describe(_ error: DecodingError, path: String) -> PackageFileError {
    func field(_ codingPath: [any CodingKey], _ last: (any CodingKey)? = nil) -> String {
      (codingPath + (last.map { [$0] } ?? [])).map { key in
        key.intValue.map { "[\($0)]" } ?? "." + key.stringValue
      }.joined().trimmingCharacters(in: CharacterSet(charactersIn: "."))
    }
    switch error {
    case .keyNotFound(let key, let context):
      return .missingField(path: path, field: field(context.codingPath, key))
    case .typeMismatch(let type, let context):
      return .wrongType(path: path, field: field(context.codingPath), expected: expected(type))
    case .valueNotFound(let type, let context):
      return .wrongType(path: path, field: field(context.codingPath), expected: expected(type))
    case .dataCorrupted(let context) where context.codingPath.isEmpty:
      return .notJSON(
        path: path, reason: context.underlyingError.map { "\($0)" } ?? context.debugDescription)
    case .dataCorrupted(let context):
      return .invalidValue(
        path: path, field: field(context.codingPath), reason: context.debugDescription)
    @unknown default:
      return .notJSON(path: path, reason: "\(error)")
    }
  }

  private static func expected(_ type: Any.Type) -> String {
    switch type {
    case is String.Type: "text"
    case is Int.Type: "a whole number"
    case is Double.Type: "a number"
    case is [Any].Type, is [Content].Type: "a list"
    default: "an object"
    }
  }
}

extension PackageDocument.Party {
  init(_ person: Person) {
    let address = person.postalAddress
    self.init(
      firstName: person.firstName, lastName: person.lastName,
      postalAddress: PackageDocument.Address(
        street: address.street, city: address.city, postalCode: address.postalCode,
        country: address.country))
  }

  func person() -> Person {
    Person(
      firstName: firstName, lastName: lastName,
      postalAddress: PostalAddress(
        street: postalAddress.street, city: postalAddress.city,
        postalCode: postalAddress.postalCode, country: postalAddress.country))
  }
}
