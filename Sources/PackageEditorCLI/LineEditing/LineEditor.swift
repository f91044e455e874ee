/// The interactive line editor's logic, without a terminal: keys in, a line (or Ctrl-C,
/// Ctrl-D, a list of completions) out, and what to draw. ``TerminalLineSource`` runs it on a
/// real terminal; tests feed it keys.
///
/// Keys: printable characters insert; Left/Right, Home/End, Ctrl-A/E/B/F and Alt-B/F move;
/// Backspace, Delete, Ctrl-D (on a non-empty line), Ctrl-K/U/W, Alt-Backspace delete, Ctrl-Y
/// yanks; Up/Down and Ctrl-P/N walk the history; Ctrl-R searches it backwards (Ctrl-G then
/// gives up the search and restores the line as it was); Tab completes (a second Tab lists the
/// candidates); Ctrl-L clears the screen; Ctrl-C clears the line; Ctrl-D on an empty line ends
/// the input; Enter submits.
struct LineEditor {
  enum Outcome: Equatable {
    /// Keep editing (redraw).
    case editing
    /// The line was entered.
    case submitted(String)
    /// Ctrl-C: the line was dropped.
    case interrupted
    /// Ctrl-D on an empty line.
    case endOfInput
    /// A second Tab with several candidates: list them (each with its note, if it has one),
    /// then redraw.
    case candidates([String], notes: [String: String] = [:])
    /// Ctrl-L: clear the screen, then redraw.
    case clearScreen
  }

  /// What Tab may complete the word before the cursor to.
  struct Completions: Equatable {
    /// The word being completed: the end of the text before the cursor.
    var word: String
    /// What may replace it, sorted; each starts with `word`.
    var candidates: [String]
    /// What a listing shows beside a candidate: a content line's title beside its index.
    var notes: [String: String] = [:]
  }

  /// Completes the word before the cursor: given the text before the cursor, the word being
  /// completed and what may replace it.
  typealias Completer = (_ beforeCursor: String) -> Completions

  private(set) var buffer = LineBuffer()
  let history: History
  let completer: Completer
  /// The history entry shown (`nil`: the line being typed, saved in `draft`).
  private var historyIndex: Int?
  private var draft = ""
  /// Reverse search: the query and the entry it found.
  private(set) var search: (query: String, match: Int?)?
  /// The line as it was when the search started, for Ctrl-G.
  private var beforeSearch: LineBuffer?
  private var lastKeyWasTab = false

  init(
    history: History,
    completer: @escaping Completer = { _ in Completions(word: "", candidates: []) }
  ) {
    self.history = history
    self.completer = completer
  }

  /// The prompt to show: `prompt`, or the search prompt while searching.
  func prompt(_ prompt: String) -> String {
    guard let search else { return prompt }
    return "(reverse-i-search)'\(search.query)': "
  }

  /// Starts a new line.
  mutating func reset() {
    buffer = LineBuffer()
    historyIndex = nil
    draft = ""
    search = nil
    beforeSearch = nil
    lastKeyWasTab = false
  }

  mutating func handle(_ key: Key) -> Outcome {
    if search != nil, let outcome = handleSearch(key) { return outcome }
    let wasTab = lastKeyWasTab
    lastKeyWasTab = key == .tab
    switch key {
    case .character(let character): buffer.insert([character])
    case .enter: return .submitted(buffer.text)
    case .backspace, .control("h"): buffer.backspace()
    case .delete: buffer.deleteForward()
    case .control("d"):
      guard !buffer.isEmpty else { return .endOfInput }
      buffer.deleteForward()
    case .left, .control("b"): buffer.moveLeft()
    case .right, .control("f"): buffer.moveRight()
    case .home, .control("a"): buffer.moveHome()
    case .end, .control("e"): buffer.moveEnd()
    case .wordLeft: buffer.moveWordLeft()
    case .wordRight: buffer.moveWordRight()
    case .control("k"): buffer.killToEnd()
    case .control("u"): buffer.killToStart()
    case .control("w"): buffer.killWordBefore()
    case .altBackspace: buffer.killWordPart()
    case .control("y"): buffer.yank()
    case .up, .control("p"): recall(older: true)
    case .down, .control("n"): recall(older: false)
    case .control("r"):
      search = (query: "", match: nil)
      beforeSearch = buffer
    case .control("l"): return .clearScreen
    case .control("c"):
      reset()
      return .interrupted
    case .tab: return complete(listing: wasTab)
    default: break
    }
    return .editing
  }

  /// Up (`older`) or Down through the history; the line being typed is kept.
  private mutating func recall(older: Bool) {
    let entries = history.entries
    guard !entries.isEmpty else { return }
    if historyIndex == nil { draft = buffer.text }
    let next: Int? =
      if older { max(0, (historyIndex ?? entries.count) - 1) } else {
        historyIndex.flatMap { $0 + 1 < entries.count ? $0 + 1 : nil }
      }
    historyIndex = next
    buffer.replaceAll(with: next.map { entries[$0] } ?? draft)
  }

  /// A key while searching; `nil` when the search ended and the key is to be handled as usual.
  private mutating func handleSearch(_ key: Key) -> Outcome? {
    guard var (query, match) = search else { return nil }
    switch key {
    case .character(let character):
      query.append(character)
      match = history.search(query, before: (match ?? history.entries.count) + 1) ?? match
    case .backspace:
      query = String(query.dropLast())
      match = history.search(query, before: history.entries.count)
    case .control("r"):
      match = history.search(query, before: match ?? history.entries.count) ?? match
    case .control("g"):
      // Gives up the search: the line is what it was before it.
      search = nil
      if let beforeSearch { buffer = beforeSearch }
      beforeSearch = nil
      return .editing
    case .control("c"):
      reset()
      return .interrupted
    default:
      // Any other key accepts the match and acts as usual.
      search = nil
      if let match { buffer.replaceAll(with: history.entries[match]) }
      return nil
    }
    search = (query, match)
    if let match { buffer.replaceAll(with: history.entries[match]) }
    return .editing
  }

  /// Tab: completes the word before the cursor as far as the candidates agree; a second Tab
  /// with several candidates lists them.
  private mutating func complete(listing: Bool) -> Outcome {
    let completions = completer(buffer.beforeCursor)
    let (word, candidates) = (completions.word, completions.candidates)
    guard !candidates.isEmpty else { return .editing }
    if candidates.count == 1, let only = candidates.first {
      buffer.insert(only.dropFirst(word.count))
      // A finished word gets its space; a key path that goes on (`recipient.`) does not.
      if !only.hasSuffix("."), !only.hasSuffix("/") { buffer.insert([" "]) }
      return .editing
    }
    let common = LineEditor.commonPrefix(candidates)
    if common.count > word.count {
      buffer.insert(common.dropFirst(word.count))
      return .editing
    }
    return listing ? .candidates(candidates, notes: completions.notes) : .editing
  }

  static func commonPrefix(_ strings: [String]) -> String {
    guard var prefix = strings.first.map(Array.init) else { return "" }
    for string in strings.dropFirst() {
      prefix = Array(zip(prefix, string).prefix { $0 == $1 }.map(\.0))
    }
    return String(prefix)
  }
}
