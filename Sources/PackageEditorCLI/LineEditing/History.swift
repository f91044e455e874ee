import Foundation

/// The lines entered before, for Up/Down and Ctrl-R; kept across runs in a file.
///
/// Bounded to ``limit`` entries (the oldest go first); an entry equal to the one before it, or
/// empty, is not added. The file is one entry per line, with `\` and newlines escaped; it is
/// read at start, each entry is appended to it, and it is rewritten with the last ``limit``
/// entries when it holds twice as many (so it stays bounded). Failures to read or write it are
/// warnings, never errors.
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
    if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
      return state + "/package-editor/history"
    }
    guard let home = environment["HOME"], home.hasPrefix("/") else { return nil }
    return home + "/.local/state/package-editor/history"
  }

  /// A history kept in `file` (if any), loaded now. `warn` receives a message if the file
  /// cannot be read.
  init(file: String?, warn: (String) -> Void = { _ in }) {
    self.file = file
    guard let file, FileManager.default.fileExists(atPath: file) else { return }
    guard let data = FileManager.default.contents(atPath: file) else {
      warn("cannot read the history file \(file)")
      return
    }
    let lines = String(decoding: data, as: UTF8.self).split(separator: "\n").map {
      History.unescape(String($0))
    }
    entries = Array(lines.suffix(History.limit))
    fileLines = lines.count
  }

  /// Adds `line` (without trailing spaces); returns a warning if the file could not be written.
  @discardableResult
  func add(_ line: String) -> String? {
    var line = line
    while line.last?.isWhitespace == true { line.removeLast() }
    guard !line.isEmpty, entries.last != line else { return nil }
    entries.append(line)
    if entries.count > History.limit { entries.removeFirst(entries.count - History.limit) }
    return save()
  }

  private func save() -> String? {
    guard let file else { return nil }
    do {
      if fileLines + 1 >= 2 * History.limit || fileLines == 0 {
        let directory = (file as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(
          atPath: directory, withIntermediateDirectories: true)
        let text = entries.map(History.escape).joined(separator: "\n") + "\n"
        try Data(text.utf8).write(to: URL(fileURLWithPath: file), options: .atomic)
        fileLines = entries.count
      } else {
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: file))
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: Data((History.escape(entries.last!) + "\n").utf8))
        fileLines += 1
      }
      return nil
    } catch {
      return "cannot write the history file \(file); history is kept for this session only"
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
