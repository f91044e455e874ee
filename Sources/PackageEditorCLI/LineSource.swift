/// A source of input lines: standard input, or the `-e` commands.
protocol LineSource: AnyObject {
  func next() -> LineReader.Line?
}

extension LineReader: LineSource {}
