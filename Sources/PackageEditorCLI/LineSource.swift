/// A source of input lines: standard input, or the `-e` commands and `-f` scripts.
protocol LineSource: AnyObject {
  /// The next line, or `nil` at the end of input.
  func next() -> LineReader.Line?
  /// Where the line ``next()`` returned last comes from, for error messages in batch mode:
  /// `script.txt:12`, `<stdin>:3`; `nil` if the source has no name.
  var location: String? { get }
}

extension LineReader: LineSource {}
