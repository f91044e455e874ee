/// Draws the prompt and the line on a terminal `columns` wide, wrapping long lines over
/// several rows, and puts the cursor where it belongs. It remembers the row the cursor was left
/// on, so that the next drawing starts from the first row again (after an edit, a history
/// recall or a resize).
///
/// A drawing writes the prompt and the line over the old ones, then erases what is left after
/// them: it never erases from the start of the prompt's row. There, after Ctrl-L, that would
/// erase the whole screen from its top left corner, which terminals such as VTE (GNOME
/// Terminal) and Windows Terminal take as clearing the screen, saving it to their scrollback:
/// one more copy of the line there for every key.
struct LineRenderer {
  /// The row of the cursor, counted from the prompt's row, after the last drawing.
  private(set) var cursorRow = 0

  /// The bytes that clear the screen and put the cursor at its top left (then draw again).
  mutating func clearScreen() -> String {
    cursorRow = 0
    return "\u{1B}[H\u{1B}[2J"
  }

  /// The bytes that redraw `prompt` and `buffer`.
  mutating func draw(prompt: String, buffer: LineBuffer, columns: Int) -> String {
    let columns = max(columns, 1)
    var output = ""
    if cursorRow > 0 { output += "\u{1B}[\(cursorRow)A" }
    output += "\r" + prompt + buffer.text
    let end = DisplayWidth.of(prompt) + DisplayWidth.of(buffer.characters)
    // A line that ends exactly at the right margin leaves the terminal's cursor there, not on
    // the next row: move it explicitly.
    if end > 0, end % columns == 0 { output += "\r\n" }
    // What the old line had beyond the new one.
    output += "\u{1B}[J"
    let endRow = end / columns
    let at = DisplayWidth.of(prompt) + DisplayWidth.of(buffer.characters[..<buffer.cursor])
    let row = at / columns
    let column = at % columns
    if endRow > row { output += "\u{1B}[\(endRow - row)A" }
    output += "\r"
    if column > 0 { output += "\u{1B}[\(column)C" }
    cursorRow = row
    return output
  }

  /// Moves below the line (before printing output under it, or after Enter): returns the bytes,
  /// and starts the next drawing on a fresh row.
  mutating func finish(buffer: LineBuffer, prompt: String, columns: Int) -> String {
    let columns = max(columns, 1)
    let end = DisplayWidth.of(prompt) + DisplayWidth.of(buffer.characters)
    let endRow = end / columns
    let down = endRow - cursorRow
    cursorRow = 0
    return (down > 0 ? "\u{1B}[\(down)B" : "") + "\r\n"
  }
}
