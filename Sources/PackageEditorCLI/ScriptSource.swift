/// Lines given up front (the `-e` commands, or a test's script).
final class ScriptSource: LineSource {
  private var lines: IndexingIterator<[String]>
  init(_ lines: [String]) { self.lines = lines.makeIterator() }
  func next() -> LineReader.Line? { lines.next().map { .text($0) } }
}
