import KVOLiteTestSupport
import Testing

@testable import PackageEditorCLI

@Suite("Tokenizer")
struct TokenizerTests {
  @Test(
    "splits words, groups quotes, handles escapes",
    arguments: [
      ("set a b", ["set", "a", "b"]),
      ("  set\ta   b  ", ["set", "a", "b"]),
      (#"set street "1 Main St""#, ["set", "street", "1 Main St"]),
      (#"set x "say \"hi\"""#, ["set", "x", #"say "hi""#]),
      (#"set x "back\\slash""#, ["set", "x", #"back\slash"#]),
      (#"set x "a\nb""#, ["set", "x", "a\nb"]),
      (#"set x """#, ["set", "x", ""]),
      (#"set x ab"c d"e"#, ["set", "x", "abc de"]),
      ("", []),
      ("Ünï ☃", ["Ünï", "☃"]),
      (#"set x "a\rb\u{1b}[31m\u{1F600}\u{0}""#, ["set", "x", "a\rb\u{1b}[31m\u{1F600}\u{0}"]),
      (#"set x "\u{10FFFF}""#, ["set", "x", "\u{10FFFF}"]),
    ])
  func valid(line: String, words: [String]) throws {
    #expect(try Tokenizer.words(line) == words)
  }

  @Test(
    "rejects what cannot be a command",
    arguments: [
      (#"set x "open"#, Tokenizer.Failure.unbalancedQuote),
      (#"set x "trailing\"#, .unbalancedQuote),
      (#"set x "\q""#, .unknownEscape("q")),
      ("set x \u{07}", .controlCharacter("\u{07}")),
      ("set\u{0}x", .controlCharacter("\u{0}")),
      ("del\u{7F}", .controlCharacter("\u{7F}")),
      (#"set x "\u{110000}""#, .badUnicodeEscape("{110000}")),
      (#"set x "\u{D800}""#, .badUnicodeEscape("{D800}")),
      (#"set x "\u{}""#, .badUnicodeEscape("{}")),
      (#"set x "\u{zz}""#, .badUnicodeEscape("{zz}")),
      (#"set x "\u41""#, .badUnicodeEscape("4")),
      (#"set x "\u{000000041}""#, .badUnicodeEscape("{000000041}")),
      (#"set x "\u{41"#, .badUnicodeEscape("{41")),
    ])
  func invalid(line: String, failure: Tokenizer.Failure) {
    #expect(throws: failure) { _ = try Tokenizer.words(line) }
  }

  @Test("lines without escapes read byte by byte exactly as scalar by scalar")
  func bytesMatchScalars() {
    // Every line of up to four pieces from a set that covers each rule: separators, quotes,
    // control characters, DEL, multi-byte scalars and a combining mark.
    let pieces = ["a", " ", "\t", "\"", "\u{1}", "\u{7F}", "é", "e\u{301}", "☃", "\u{1F600}"]
    var lines = [""]
    var longest = [""]
    for _ in 0..<4 {
      longest = longest.flatMap { line in pieces.map { line + $0 } }
      lines += longest
    }
    lines += [
      "set x \"1 Main St\"  \"\" ", "\"unterminated", "a\u{0}b",
      String(repeating: "w ", count: 5_000),
    ]
    for line in lines {
      #expect(outcome(Tokenizer.words, line) == outcome(Tokenizer.scalarWords, line))
    }
  }

  /// The words of `line`, or the failure, as one comparable value.
  private func outcome(
    _ read: (String) throws(Tokenizer.Failure) -> [String], _ line: String
  ) -> Result<[String], Tokenizer.Failure> {
    do {
      return .success(try read(line))
    } catch {
      return .failure(error)
    }
  }

  @Test("failures describe themselves")
  func messages() {
    #expect(
      Tokenizer.Failure.unbalancedQuote.description
        == "unbalanced quote: a quoted value needs its closing quote")
    #expect(
      Tokenizer.Failure.controlCharacter("\u{1B}").description
        == "the line contains a control character (U+001B)")
  }
}
