/// The line being edited: its characters (grapheme clusters, so that a cursor never splits an
/// accented letter or an emoji), the cursor, and the last killed text (for Ctrl-Y). Plain
/// value; the Emacs keys map onto its methods.
struct LineBuffer: Equatable {
  private(set) var characters: [Character] = []
  /// The cursor: the index of the character it is before (`characters.count` at the end).
  private(set) var cursor = 0
  /// What the last kill removed.
  private(set) var killed: [Character] = []

  init(_ text: String = "") {
    characters = Array(text)
    cursor = characters.count
  }

  var text: String { String(characters) }
  var isEmpty: Bool { characters.isEmpty }
  /// The text before the cursor.
  var beforeCursor: String { String(characters[..<cursor]) }

  /// Inserts at the cursor. Characters are regrouped, so that a modifier typed after its base
  /// (a skin tone after 👍, a combining accent after e) joins it.
  mutating func insert(_ text: some Sequence<Character>) {
    let before = String(characters[..<cursor]) + String(text)
    let after = String(characters[cursor...])
    cursor = before.count
    characters = Array(before + after)
    // Joining may have merged the last inserted character with the one after the cursor.
    cursor = min(cursor, characters.count)
  }

  /// Replaces everything, with the cursor at the end.
  mutating func replaceAll(with text: String) {
    characters = Array(text)
    cursor = characters.count
  }

  mutating func backspace() {
    guard cursor > 0 else { return }
    cursor -= 1
    characters.remove(at: cursor)
  }

  mutating func deleteForward() {
    guard cursor < characters.count else { return }
    characters.remove(at: cursor)
  }

  mutating func moveLeft() { cursor = max(0, cursor - 1) }
  mutating func moveRight() { cursor = min(characters.count, cursor + 1) }
  mutating func moveHome() { cursor = 0 }
  mutating func moveEnd() { cursor = characters.count }

  /// Alt-B: to the start of the word before the cursor.
  mutating func moveWordLeft() { cursor = wordStart(before: cursor) }

  /// Alt-F: to the end of the word after the cursor.
  mutating func moveWordRight() {
    var index = cursor
    while index < characters.count, !isWord(characters[index]) { index += 1 }
    while index < characters.count, isWord(characters[index]) { index += 1 }
    cursor = index
  }

  /// Ctrl-K: kills from the cursor to the end.
  mutating func killToEnd() {
    killed = Array(characters[cursor...])
    characters.removeSubrange(cursor...)
  }

  /// Ctrl-U: kills from the start to the cursor.
  mutating func killToStart() {
    killed = Array(characters[..<cursor])
    characters.removeSubrange(..<cursor)
    cursor = 0
  }

  /// Ctrl-W: kills the word before the cursor (and the spaces after it), as a shell does.
  mutating func killWordBefore() {
    var start = cursor
    while start > 0, characters[start - 1] == " " { start -= 1 }
    while start > 0, characters[start - 1] != " " { start -= 1 }
    killed = Array(characters[start..<cursor])
    characters.removeSubrange(start..<cursor)
    cursor = start
  }

  /// Alt-Backspace: kills back to the start of the word (words end at punctuation such as
  /// `.`, so a key path loses one segment).
  mutating func killWordPart() {
    let start = wordStart(before: cursor)
    killed = Array(characters[start..<cursor])
    characters.removeSubrange(start..<cursor)
    cursor = start
  }

  /// Ctrl-Y: inserts the last killed text.
  mutating func yank() { insert(killed) }

  private func wordStart(before position: Int) -> Int {
    var index = position
    while index > 0, !isWord(characters[index - 1]) { index -= 1 }
    while index > 0, isWord(characters[index - 1]) { index -= 1 }
    return index
  }

  private func isWord(_ character: Character) -> Bool {
    character.isLetter || character.isNumber || character == "_"
  }
}
