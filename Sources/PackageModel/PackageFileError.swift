/// Why a package file could not be read or written. Every case names the file and the problem,
/// as one sentence without a trailing period.
public enum PackageFileError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The file could not be read (missing, a directory, no permission…).
  case unreadable(path: String, reason: String)
  /// The file could not be written; the previous file, if any, is intact. The reason says
  /// what would let it be written where it can: `the file is read-only (chmod u+w p.json
  /// makes it writable)`, `permission denied: user bob may not write it (it belongs to ann,
  /// rw-r--r--)`, which program holds its lock.
  case unwritable(path: String, reason: String)
  /// The file was not written because another program changed (or created) it since it was
  /// loaded or last saved; the file is intact.
  case changedOnDisk(path: String, reason: String)
  /// The file is not JSON (or is truncated). The reason names the line and column (in
  /// characters) of the first mistake and what was expected there: `line 1, column 35:
  /// expected a key in double quotes, found "}"`.
  case notJSON(path: String, reason: String)
  /// The document's `format` is not one this version reads.
  case unsupportedFormat(path: String, format: Int)
  /// A field the document needs is missing.
  case missingField(path: String, field: String)
  /// A field has the wrong type.
  case wrongType(path: String, field: String, expected: String)
  /// A key appears twice in one object (`field` names the second one).
  case duplicateKey(path: String, field: String)
  /// A field has a value the model refuses.
  case invalidValue(path: String, field: String, reason: String)

  /// A readable description, as printed.
  public var description: String {
    switch self {
    case .unreadable(let path, let reason): "cannot read \(path): \(reason)"
    case .unwritable(let path, let reason): "cannot write \(path): \(reason)"
    case .changedOnDisk(let path, let reason): "not saved: \(path): \(reason)"
    case .notJSON(let path, let reason): "\(path) is not a package file (not valid JSON: \(reason))"
    case .unsupportedFormat(let path, let format):
      "\(path) has format \(format); this version reads format \(PackageDocument.currentFormat)"
    case .missingField(let path, let field): "\(path) lacks the field \"\(field)\""
    case .wrongType(let path, let field, let expected): "\(path): \"\(field)\" must be \(expected)"
    case .duplicateKey(let path, let field): "\(path): \"\(field)\" is given twice"
    case .invalidValue(let path, let field, let reason):
      "\(path): \"\(field)\" is invalid: \(reason)"
    }
  }
}
