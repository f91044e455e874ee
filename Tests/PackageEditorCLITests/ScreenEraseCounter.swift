/// Follows the cursor of a terminal through what the editor writes, and counts the erasures of
/// the whole display: `ESC [2J`, and `ESC [J` (erase below) with the cursor at the top left.
///
/// Terminals such as VTE (GNOME Terminal), Apple's Terminal and Windows Terminal save the
/// screen to their scrollback when the whole display is erased; one erasure per keystroke adds
/// a copy of the line to the scrollback for each key. Only what the line editor writes is
/// understood: printable text (wrapping at the right margin), CR, LF, and the sequences
/// `ESC [ n A/B/C/D`, `ESC [H`, `ESC [J`, `ESC [2J`, `ESC [K` and `ESC [ … m`.
struct ScreenEraseCounter {
  let columns: Int
  let rows: Int
  private(set) var row = 0
  private(set) var column = 0
  /// How many times the whole display was erased.
  private(set) var wholeDisplayErasures = 0

  /// A terminal `columns` wide and `rows` high, its cursor on `row` (0 is the top).
  init(columns: Int, rows: Int, row: Int) {
    self.columns = columns
    self.rows = rows
    self.row = row
  }

  mutating func feed(_ text: String) {
    var scalars = text.unicodeScalars.makeIterator()
    while let scalar = scalars.next() {
      switch scalar {
      case "\r": column = 0
      case "\n": row = min(row + 1, rows - 1)
      case "\u{1B}":
        guard scalars.next() == "[" else { continue }
        var parameter = ""
        var final: Unicode.Scalar = "?"
        while let next = scalars.next() {
          if next.properties.numericType != nil || next == ";" {
            parameter.unicodeScalars.append(next)
          } else {
            final = next
            break
          }
        }
        apply(final, Int(parameter))
      default:
        // Printable: the cursor wraps to the next row when it passes the right margin.
        if column >= columns {
          column = 0
          row = min(row + 1, rows - 1)
        }
        column += scalar.properties.isEmojiPresentation ? 2 : 1
      }
    }
  }

  private mutating func apply(_ final: Unicode.Scalar, _ count: Int?) {
    switch final {
    case "A": row = max(0, row - (count ?? 1))
    case "B": row = min(rows - 1, row + (count ?? 1))
    case "C": column = min(columns - 1, column + (count ?? 1))
    case "D": column = max(0, column - (count ?? 1))
    case "H": (row, column) = (0, 0)
    case "J":
      if count == 2 || count == 3 || ((count ?? 0) == 0 && row == 0 && column == 0) {
        wholeDisplayErasures += 1
      }
    default: break  // `K` and `m` move nothing.
    }
  }
}
