/// The editor's input: its own source (the terminal, standard input, the `-e` and `-f`
/// scripts) with the scripts that `source FILE` runs on top of it, read first, innermost
/// first, as `sqlite3`'s `.read` and `psql`'s `\i` do.
final class SourceStack: LineSource {
  /// How deep `source` may nest (a script that sources itself stops there).
  static let maximumDepth = 16

  private let base: LineSource
  private var scripts: [LineSource] = []

  init(_ base: LineSource) { self.base = base }

  /// The editor's own source.
  var underlying: LineSource { base }

  /// How many scripts are being run.
  var depth: Int { scripts.count }

  /// Whether the line read last came from a script that `source` runs.
  var isReadingScript: Bool { !scripts.isEmpty }

  /// Runs `script`'s lines before any other.
  func push(_ script: LineSource) { scripts.append(script) }

  /// Stops every script (after an error in one, in interactive mode).
  func abandonScripts() { scripts = [] }

  func next() -> LineReader.Line? {
    while let script = scripts.last {
      if let line = script.next() { return line }
      scripts.removeLast()
    }
    return base.next()
  }

  var location: String? { scripts.last?.location ?? base.location }
}
