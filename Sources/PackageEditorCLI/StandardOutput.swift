#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The process's standard output (buffered, flushed before reading input and at exit) and
/// standard error, with colours when asked for.
///
/// A failed write to standard output (a full disk, an I/O error, a reader that went away) is
/// kept in ``failure``: the session ends, and the editor reports it and exits non-zero. The
/// process ignores `SIGPIPE`, so that a reader that went away is the error `EPIPE`. Standard
/// error is best effort.
final class StandardOutput: EditorOutput {
  private let colors: Bool
  private var buffer: [UInt8] = []
  /// Why writing standard output failed, if it did.
  private(set) var failure: String?

  /// Whether standard output was closed at start (see ``StandardDescriptors``): anything
  /// written is then a failure, as writing a closed descriptor is.
  private let closed: Bool

  init(colors: Bool, closed: Bool = false) {
    self.colors = colors
    self.closed = closed
    buffer.reserveCapacity(1 << 16)
  }

  deinit { flush() }

  func line(_ text: String) { write(text) }
  func watch(_ text: String) { write(colors ? "\u{1B}[36m\(text)\u{1B}[0m" : text) }
  func summary(_ text: String) { write(colors ? "\u{1B}[2m\(text)\u{1B}[0m" : text) }

  func error(_ message: String) {
    flush()
    let text = "error: " + message
    StandardOutput.write((colors ? "\u{1B}[31m\(text)\u{1B}[0m" : text) + "\n", to: 2)
  }

  func error(_ message: String, at location: String) {
    flush()
    let text = "error: " + message
    StandardOutput.write(
      location + ": " + (colors ? "\u{1B}[31m\(text)\u{1B}[0m" : text) + "\n", to: 2)
  }

  func warning(_ message: String) {
    flush()
    let text = "warning: " + message
    StandardOutput.write((colors ? "\u{1B}[33m\(text)\u{1B}[0m" : text) + "\n", to: 2)
  }

  /// Writes `text` without a newline, flushing at once (for the prompt).
  func prompt(_ text: String) {
    write(text, newline: false)
    flush()
  }

  func flush() {
    guard !buffer.isEmpty else { return }
    let code: Int32? = closed ? EBADF : buffer.withUnsafeBytes { StandardOutput.write($0, to: 1) }
    if let code, failure == nil {
      failure =
        switch code {
        case ENOSPC: "no space left on the device"
        case EPIPE: "its reader went away (broken pipe)"
        default: String(cString: strerror(code))
        }
    }
    buffer.removeAll(keepingCapacity: true)
  }

  /// Writes all of `text` to a file descriptor; returns the error that stopped it, or `nil`.
  @discardableResult
  static func write(_ text: String, to descriptor: Int32) -> Int32? {
    var text = text
    return text.withUTF8 { write(UnsafeRawBufferPointer($0), to: descriptor) }
  }

  /// Writes all of `bytes` to a file descriptor, retrying partial and interrupted writes;
  /// returns the error that stopped it (`errno`), or `nil`.
  static func write(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> Int32? {
    var offset = 0
    while offset < bytes.count {
      let written = systemWrite(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
      if written <= 0 {
        if written < 0, errno == EINTR { continue }
        return written < 0 ? errno : EIO
      }
      offset += written
    }
    return nil
  }

  private func write(_ text: String, newline: Bool = true) {
    buffer.append(contentsOf: text.utf8)
    if newline { buffer.append(UInt8(ascii: "\n")) }
    if buffer.count >= 1 << 16 { flush() }
  }
}

/// `write(2)`, under a name that does not clash with the methods above.
private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
  write(descriptor, buffer, count)
}
