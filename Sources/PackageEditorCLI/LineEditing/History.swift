import Foundation

/// The lines entered before, for Up/Down and Ctrl-R; kept across runs in a file.
///
/// Bounded to ``limit`` entries (the oldest go first); an entry equal to the one before it, or
/// empty, is not added. The file is one entry per line, with `\` and newlines escaped; it is
/// read at start, each entry is appended to it, and it is rewritten with the last ``limit``
/// entries when it holds twice as many (so it stays bounded). Failures to read or write it are
/// warnings, never errors.
///
/// The file holds everything typed, so it is private: created `0600` in a directory created
/// `0700`, never followed if it is a symbolic link (a link there is refused with a warning and
/// the history is kept for the session only), and rewritten through a new private file renamed
/// over it. Entries are shown as they will run, but a control character in one (which only a
/// crafted file can hold) is replaced by its escape (`\u{1b}`) when the file is read, so that
/// recalling it never sends an escape sequence to the terminal.
final class History {
  static let limit = 1000

  private(set) var entries: [String] = []
  let file: String?
  /// How many lines the file holds (rewritten when it reaches twice the limit).
  private var fileLines = 0

  /// The history file: `$XDG_STATE_HOME/package-editor/history`, by default
  /// `~/.local/state/package-editor/history`; `nil` when `PACKAGE_EDITOR_HISTORY=off` or no
  /// home is known.
  static func file(in environment: [String: String]) -> String? {
    guard environment["PACKAGE_EDITOR_HISTORY"]?.lowercased() != "off" else { return nil }
    return stateDirectory(in: environment).map { $0 + "/history" }
  }

  /// The editor's state directory (history, recovery files): `$XDG_STATE_HOME/package-editor`,
  /// by default `~/.local/state/package-editor`; `nil` when no home is known.
  static func stateDirectory(in environment: [String: String]) -> String? {
    if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
      return state + "/package-editor"
    }
    guard let home = environment["HOME"], home.hasPrefix("/") else { return nil }
    return home + "/.local/state/package-editor"
  }

  /// A history kept in `file` (if any), loaded now. `warn` receives a message if the file
  /// cannot be read or is refused.
  init(file: String?, warn: (String) -> Void = { _ in }) {
    self.file = file
    guard let file else { return }
    let descriptor = open(file, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
    guard descriptor >= 0 else {
      if errno != ENOENT {
        refused = errno == ELOOP  // A link is never written through; other errors may pass.
        warn("cannot read the history file \(file): \(History.reason(errno))")
      }
      return
    }
    defer { close(descriptor) }
    var info = stat()
    guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
      refused = true
      warn("cannot read the history file \(file): it is not a regular file")
      return
    }
    var data: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = read(descriptor, &chunk, chunk.count)
      if count < 0, errno == EINTR { continue }
      guard count > 0 else { break }
      data += chunk[..<count]
    }
    let lines = String(decoding: data, as: UTF8.self).split(separator: "\n").map {
      OneLineOutput.escaped(History.unescape(String($0)))
    }
    entries = Array(lines.suffix(History.limit))
    fileLines = lines.count
  }

  /// Whether the file was refused (a symbolic link, not a regular file): nothing is written.
  private var refused = false

  /// Adds `line` (without trailing spaces); returns a warning if the file could not be written.
  @discardableResult
  func add(_ line: String) -> String? {
    var line = OneLineOutput.escaped(line)
    while line.last?.isWhitespace == true { line.removeLast() }
    guard !line.isEmpty, entries.last != line else { return nil }
    entries.append(line)
    if entries.count > History.limit { entries.removeFirst(entries.count - History.limit) }
    return save()
  }

  private func save() -> String? {
    guard let file, !refused else { return nil }
    let rewrite = fileLines + 1 >= 2 * History.limit || fileLines == 0
    let text =
      rewrite
      ? entries.map(History.escape).joined(separator: "\n") + "\n"
      : History.escape(entries.last!) + "\n"
    let failure = rewrite ? History.replace(file, with: text) : History.append(text, to: file)
    guard let failure else {
      fileLines = rewrite ? entries.count : fileLines + 1
      return nil
    }
    return
      "cannot write the history file \(file) (\(failure)); history is kept for this session only"
  }

  /// Writes `text` to a new private file beside `file` and renames it over `file` (which, if
  /// it is a symbolic link, is replaced, not followed); creates the directory `0700` if it is
  /// missing. Returns why it failed, or `nil`.
  private static func replace(_ file: String, with text: String) -> String? {
    let directory = (file as NSString).deletingLastPathComponent
    if let failure = makeDirectory(directory) { return failure }
    let temporary = file + ".\(getpid()).tmp"
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { return reason(errno) }
    let written = writeAll(text, to: descriptor)
    let closed = close(descriptor) == 0
    guard written, closed, rename(temporary, file) == 0 else {
      let failure = reason(errno)
      unlink(temporary)
      return failure
    }
    return nil
  }

  /// Appends `text` to `file`, which must be a regular file (a symbolic link is not followed);
  /// makes it private if it is not. Returns why it failed, or `nil`.
  private static func append(_ text: String, to file: String) -> String? {
    let descriptor = open(file, O_WRONLY | O_APPEND | O_NOFOLLOW | O_CLOEXEC)
    guard descriptor >= 0 else { return reason(errno) }
    defer { close(descriptor) }
    var info = stat()
    guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
      return "it is not a regular file"
    }
    if info.st_mode & 0o077 != 0 { _ = fchmod(descriptor, 0o600) }
    return writeAll(text, to: descriptor) ? nil : reason(errno)
  }

  /// Creates `directory` and its missing parents, each `0700`. Returns why it failed, or `nil`.
  static func makeDirectory(_ directory: String) -> String? {
    var info = stat()
    if stat(directory, &info) == 0 {
      return info.st_mode & S_IFMT == S_IFDIR ? nil : "\(directory) is not a directory"
    }
    let parent = (directory as NSString).deletingLastPathComponent
    if parent != directory, !parent.isEmpty, let failure = makeDirectory(parent) {
      return failure
    }
    guard mkdir(directory, 0o700) == 0 || errno == EEXIST else { return reason(errno) }
    return nil
  }

  private static func writeAll(_ text: String, to descriptor: Int32) -> Bool {
    var bytes = Array(text.utf8)[...]
    while !bytes.isEmpty {
      let count = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress!, $0.count) }
      if count < 0, errno == EINTR { continue }
      guard count > 0 else { return false }
      bytes = bytes.dropFirst(count)
    }
    return true
  }

  private static func reason(_ code: Int32) -> String {
    switch code {
    case ELOOP: return "it is a symbolic link"
    case EACCES, EPERM: return "permission denied"
    default: return String(cString: strerror(code))
    }
  }

  /// The most recent entry before `index` (exclusive) containing `text`, searching backwards.
  func search(_ text: String, before index: Int) -> Int? {
    guard !text.isEmpty else { return nil }
    var position = min(index, entries.count) - 1
    while position >= 0 {
      if entries[position].contains(text) { return position }
      position -= 1
    }
    return nil
  }

  static func escape(_ line: String) -> String {
    line.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\n", with: "\\n")
  }

  static func unescape(_ line: String) -> String {
    var result = ""
    var escaping = false
    for character in line {
      if escaping {
        result.append(character == "n" ? "\n" : character)
        escaping = false
      } else if character == "\\" {
        escaping = true
      } else {
        result.append(character)
      }
    }
    return result
  }
}
