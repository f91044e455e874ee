#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Lines from a terminal, edited with ``LineEditor``: the interactive editor's input when
/// standard input and output are terminals (and `TERM` is not `dumb`).
///
/// The terminal is in raw mode only while a line is being edited; output between lines is
/// printed with the terminal as it was. Ctrl-C drops the line and shows a fresh prompt; Ctrl-D
/// on an empty line ends the input (the editor then asks before discarding unsaved changes,
/// and reading goes on); Ctrl-Z suspends with the terminal restored.
final class TerminalLineSource: LineSource {
  /// Lines typed at the terminal are not named in messages.
  var location: String? { nil }
  private var editor: LineEditor
  private var renderer = LineRenderer()
  private var decoder = KeyDecoder()
  /// The prompt drawn before the line (the editor sets it before each line: it shows the
  /// file and whether there are unsaved changes).
  var prompt = "package> "
  private let warn: (String) -> Void
  private var warnedAboutHistory = false
  /// Keys read but not handled yet: what followed an Enter in the same read (pasted lines,
  /// type-ahead) belongs to the next lines.
  private var queued: [Key] = []

  init(history: History, warn: @escaping (String) -> Void) {
    self.warn = warn
    editor = LineEditor(history: history)
  }

  /// Completion from the session, once it exists.
  func attach(_ session: EditorSession) {
    editor = LineEditor(history: editor.history, completer: session.completions)
  }

  func next() -> LineReader.Line? {
    Terminal.enterRawMode()
    defer { Terminal.restore() }
    editor.reset()
    redraw()
    var bytes = [UInt8](repeating: 0, count: 256)
    while true {
      if queued.isEmpty {
        let ready = Terminal.wait()
        if ready.hangUp { return .hangUp }
        if ready.resized { redraw() }
        guard ready.input else { continue }
        let count = bytes.withUnsafeMutableBytes { read(0, $0.baseAddress!, $0.count) }
        if count < 0 {
          guard errno == EINTR || errno == EAGAIN else {
            return .failed("cannot read standard input: error \(errno)")
          }
          continue
        }
        if count == 0 {
          write(
            renderer.finish(buffer: editor.buffer, prompt: shownPrompt, columns: Terminal.columns))
          return nil
        }
        queued = decoder.feed(bytes[..<count])
        if decoder.hasPending, !moreInputSoon() { queued += decoder.flush() }
      }
      while !queued.isEmpty {
        let key = queued.removeFirst()
        if let line = handle(key) { return line }
      }
    }
  }

  /// Handles one key; the line to return, if the key ends one (`.some(nil)` for the end of
  /// input).
  private func handle(_ key: Key) -> LineReader.Line?? {
    if key == .control("z") {
      Terminal.suspend()
      redraw()
      return nil
    }
    switch editor.handle(key) {
    case .editing: redraw()
    case .submitted(let line):
      write(renderer.finish(buffer: editor.buffer, prompt: shownPrompt, columns: Terminal.columns))
      if let warning = editor.history.add(line), !warnedAboutHistory {
        warnedAboutHistory = true
        warn(warning)
      }
      return .some(.text(line))
    case .interrupted:
      write("^C" + renderer.finish(buffer: LineBuffer(), prompt: "", columns: Terminal.columns))
      redraw()
    case .endOfInput:
      write(renderer.finish(buffer: editor.buffer, prompt: shownPrompt, columns: Terminal.columns))
      return .some(nil)
    case .clearScreen:
      write(renderer.clearScreen())
      redraw()
    case .candidates(let candidates, let notes):
      write(renderer.finish(buffer: editor.buffer, prompt: shownPrompt, columns: Terminal.columns))
      write(TerminalLineSource.listing(candidates, notes: notes, width: Terminal.columns))
      redraw()
    }
    return nil
  }

  private var shownPrompt: String { editor.prompt(prompt) }

  private func redraw() {
    write(renderer.draw(prompt: shownPrompt, buffer: editor.buffer, columns: Terminal.columns))
  }

  /// Whether more bytes arrive within 30 ms (the rest of an escape sequence).
  private func moreInputSoon() -> Bool {
    var descriptor = pollfd(fd: 0, events: Int16(POLLIN), revents: 0)
    return poll(&descriptor, 1, 30) > 0
  }

  private func write(_ text: String) {
    StandardOutput.write(text, to: 1)
  }

  /// Candidates as shells list completions: with notes, one a row, each note beside its
  /// candidate and cut to the width (`0  Books ×2`); without, in columns. Control characters
  /// are shown as their escapes: a file name or a title never reaches the terminal raw.
  static func listing(_ candidates: [String], notes: [String: String], width: Int) -> String {
    let candidates = candidates.map { (shown: OneLineOutput.escaped($0), note: notes[$0]) }
    guard candidates.contains(where: { $0.note != nil }) else {
      return columnsText(candidates.map(\.shown), width: width)
    }
    let cell = (candidates.map { DisplayWidth.of($0.shown) }.max() ?? 0) + 2
    var text = ""
    for (shown, note) in candidates {
      text += shown
      if let note, width - cell > 1 {
        text += String(repeating: " ", count: cell - DisplayWidth.of(shown))
        text += cut(OneLineOutput.escaped(note), to: width - cell)
      }
      text += "\r\n"
    }
    return text
  }

  /// `text`, cut to at most `columns` columns, with `…` where it was cut.
  static func cut(_ text: String, to columns: Int) -> String {
    guard DisplayWidth.of(text) > columns else { return text }
    var result = ""
    var used = 0
    for character in text {
      let width = DisplayWidth.of(character)
      guard used + width <= columns - 1 else { break }
      result.append(character)
      used += width
    }
    return result + "…"
  }

  /// Candidates laid out in columns, as shells list completions.
  static func columnsText(_ candidates: [String], width: Int) -> String {
    let cell = (candidates.map(DisplayWidth.of).max() ?? 0) + 2
    let perRow = max(1, width / max(cell, 1))
    var text = ""
    for (index, candidate) in candidates.enumerated() {
      let last = index % perRow == perRow - 1 || index == candidates.count - 1
      text += candidate
      text += last ? "\r\n" : String(repeating: " ", count: cell - DisplayWidth.of(candidate))
    }
    return text
  }
}
