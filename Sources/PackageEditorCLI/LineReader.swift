#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads a file descriptor (standard input) line by line as raw bytes, so that a line that is
/// not UTF-8 can be rejected rather than silently repaired.
///
/// A line longer than ``maximumLength`` is rejected as it is read: its bytes are counted and
/// dropped, never buffered whole. A read error is reported (``Line/failed(_:)``), never taken
/// for the end of input.
final class LineReader {
  /// Lines longer than this (in bytes, without the newline) are rejected rather than processed.
  static let maximumLength = 1 << 16

  enum Line: Equatable {
    /// A line of text, without its newline (`\n` or `\r\n`).
    case text(String)
    /// A line that cannot be processed (not UTF-8, too long); reading goes on.
    case invalid(String)
    /// Reading failed; nothing more can be read.
    case failed(String)
    /// A hang-up arrived (see ``HangUp``); nothing more is read.
    case hangUp
  }

  private let descriptor: Int32
  private var buffer = [UInt8](repeating: 0, count: 1 << 16)
  private var start = 0
  private var end = 0
  /// The current line's bytes so far.
  private var line: [UInt8] = []
  /// How many bytes of the current, over-long line were dropped; `nil` when it is not over-long.
  private var dropped: Int?
  private var finished = false
  /// Whether reading goes on after the end of input: on a terminal, Ctrl-D ends one read, and
  /// the user may type on (the editor asks before leaving with unsaved changes).
  private let resumesAfterEnd: Bool

  /// The name of what is read, for ``location``: `<stdin>`, a script's file name.
  private let name: String?
  /// What is read, for a read error: `standard input`, `the script "setup.txt"`.
  private let description: String
  /// The number of the line returned last.
  private var lineNumber = 0
  private let closesDescriptor: Bool

  /// Reads `descriptor` (by default standard input), named `name` in ``location``; closes it
  /// at the end if `closesDescriptor`. If `isClosed` (standard input was closed at start, see
  /// ``StandardDescriptors``), reading fails at once, as reading a closed descriptor does.
  init(
    descriptor: Int32 = 0, name: String? = nil, closesDescriptor: Bool = false,
    isClosed: Bool = false, describedAs description: String = "standard input"
  ) {
    self.descriptor = descriptor
    self.name = name
    self.description = description
    self.closesDescriptor = closesDescriptor
    resumesAfterEnd = isatty(descriptor) == 1
    failsAtOnce = isClosed
  }

  /// Whether the first read fails with `EBADF` (the descriptor was closed at start).
  private var failsAtOnce: Bool

  deinit {
    if closesDescriptor { close(descriptor) }
  }

  /// `name:line` of the line returned last, or `nil` without a name.
  var location: String? { name.map { "\($0):\(lineNumber)" } }

  /// The next line, or `nil` at the end of input.
  func next() -> Line? {
    let line = nextLine()
    if line != nil { lineNumber += 1 }
    return line
  }

  private func nextLine() -> Line? {
    if failsAtOnce, !finished {
      finished = true
      return .failed("cannot read \(description): " + LineReader.reason(EBADF))
    }
    while !finished {
      if start == end {
        guard HangUp.waitForInput(descriptor) else { return .hangUp }
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress!, $0.count) }
        if count < 0 {
          if errno == EINTR { continue }
          finished = true
          return .failed("cannot read \(description): " + LineReader.reason(errno))
        }
        if count == 0 {
          finished = !resumesAfterEnd
          guard dropped != nil || !line.isEmpty else { return nil }
          return finish()
        }
        (start, end) = (0, count)
      }
      let newline = buffer[start..<end].firstIndex(of: 0x0A)
      let segment = buffer[start..<(newline ?? end)]
      start = newline.map { $0 + 1 } ?? end
      if let count = dropped {
        dropped = count + segment.count
      } else {
        line += segment
        // One byte more than the limit may be the `\r` of a `\r\n`.
        if line.count > LineReader.maximumLength + 1 {
          dropped = line.count
          line = []
        }
      }
      if newline != nil { return finish() }
    }
    return nil
  }

  /// The line read so far, as a ``Line``; starts the next one.
  private func finish() -> Line {
    defer {
      line = []
      dropped = nil
    }
    if line.last == 0x0D { line.removeLast() }
    let length = dropped ?? line.count
    guard dropped == nil, length <= LineReader.maximumLength else {
      return .invalid("the line is too long (\(length) bytes; at most \(LineReader.maximumLength))")
    }
    return line.withUnsafeBytes(LineReader.decode)
  }

  /// Decodes a line's bytes, refusing invalid UTF-8.
  static func decode(_ bytes: UnsafeRawBufferPointer) -> Line {
    guard let text = String(validating: bytes, as: UTF8.self) else {
      return .invalid("the line is not valid UTF-8")
    }
    return .text(text)
  }

  /// The C library's message for `code`, starting in lower case.
  private static func reason(_ code: Int32) -> String {
    guard let text = strerror(code) else { return "error \(code)" }
    let message = String(cString: text)
    return message.prefix(1).lowercased() + message.dropFirst()
  }
}
