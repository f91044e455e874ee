/// A key the line editor understands, decoded from the bytes a terminal sends.
enum Key: Equatable {
  /// A character to insert (never a control character).
  case character(Character)
  case enter
  case backspace
  case delete
  case left, right, up, down
  case home, end
  case wordLeft, wordRight
  case tab
  /// Ctrl-A … Ctrl-Z (and the few others with a meaning here), by letter: `control("k")`.
  case control(Character)
  /// Alt-Backspace (delete the word before the cursor).
  case altBackspace
  /// A sequence the editor does not use (ignored).
  case unknown
}
