#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads standard input line by line as raw bytes, so that a line that is not UTF-8 can be
/// rejected rather than silently repaired.
final class LineReader {
  /// Lines longer than this are rejected (and skipped) rather than processed.
  static let maximumLength = 1 << 16

  enum Line {
    case text(String)
    case invalid(String)
  }

  private var storage: UnsafeMutablePointer<CChar>?
  private var capacity = 0
  private let input: UnsafeMutablePointer<FILE>?

  /// Reads standard input (file descriptor 0).
  init() {
    input = fdopen(0, "r")
  }

  deinit { free(storage) }

  /// The next line without its newline, or `nil` at the end of input.
  func next() -> Line? {
    guard let input else { return nil }
    let count = getline(&storage, &capacity, input)
    guard count >= 0, let storage else { return nil }
    var length = count
    if length > 0, storage[length - 1] == 0x0A { length -= 1 }
    if length > 0, storage[length - 1] == 0x0D { length -= 1 }
    guard length <= LineReader.maximumLength else {
      return .invalid("the line is too long (\(length) bytes; at most \(LineReader.maximumLength))")
    }
    let bytes = UnsafeRawBufferPointer(start: storage, count: length)
    return LineReader.decode(bytes)
  }

  /// Decodes a line's bytes, refusing invalid UTF-8.
  static func decode(_ bytes: UnsafeRawBufferPointer) -> Line {
    guard let text = String(validating: bytes, as: UTF8.self) else {
      return .invalid("the line is not valid UTF-8")
    }
    return .text(text)
  }
}
