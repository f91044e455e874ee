import KVOLiteTestSupport
import Testing

@testable import PackageEditorCLI

@Suite("Value text")
struct ValueTextTests {
  @Test(
    "a string is quoted, with quotes, backslashes and control characters escaped and everything else as it is",
    arguments: [
      ("City3", #""City3""#),
      ("", #""""#),
      ("Zoë 東京 🚚", #""Zoë 東京 🚚""#),
      (#"say "hi""#, #""say \"hi\"""#),
      (#"a\b"#, #""a\\b""#),
      ("line\nbreak\ttab\r", #""line\nbreak\ttab\r""#),
      ("\u{1b}[31mred\u{7}", #""\u{1b}[31mred\u{7}""#),
      ("\u{85}\u{2028}\u{202e}\u{feff}", #""\u{85}\u{2028}\u{202e}\u{feff}""#),
      ("\u{7f}\"\\", #""\u{7f}\"\\""#),
    ])
  func quote(text: OneLineText, expected: String) {
    #expect(ValueText.quote(text.value) == expected)
  }
}
