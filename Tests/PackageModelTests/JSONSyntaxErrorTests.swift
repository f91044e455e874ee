import Foundation
import KVOLiteTestSupport
import Testing

@testable import PackageModel

/// A file that is not JSON is refused with the line and column of the first mistake and what
/// was expected there, as `python3 -m json.tool` says it.
@Suite("JSON syntax errors")
struct JSONSyntaxErrorTests {
  @Test(
    "the first mistake is named by line and column (in characters), with what was expected and found",
    arguments: [
      (
        #"{"recipient": {"firstName": "Ann",}"#,
        #"line 1, column 35: expected a key in double quotes, found "}""#
      ),
      ("", "line 1, column 1: expected a value, found the end of the file"),
      ("  \n\n  ", "line 3, column 3: expected a value, found the end of the file"),
      ("{\"format\": 1,\n  \"recipient\" {}}", #"line 2, column 15: expected ":", found "{""#),
      ("[1, 2,]", #"line 1, column 7: expected a value, found "]""#),
      ("[1 2]", #"line 1, column 4: expected "," or "]", found "2""#),
      (
        "{", #"line 1, column 2: expected a key in double quotes or "}", found the end of the file"#
      ),
      (#"{"a": tru}"#, #"line 1, column 7: expected a value, found "tru""#),
      (#"{"a": NaN}"#, #"line 1, column 7: expected a value, found "NaN""#),
      (#"{"a": 01}"#, #"line 1, column 8: expected "," or "}", found "1""#),
      (#"{"a": 1.}"#, #"line 1, column 9: expected a digit, found "}""#),
      (#"{"a": -}"#, #"line 1, column 8: expected a digit, found "}""#),
      (#"{"a": 1e}"#, #"line 1, column 9: expected a digit, found "}""#),
      (#"{"a": 1"#, #"line 1, column 8: expected "," or "}", found the end of the file"#),
      (#"{"a": 1} x"#, #"line 1, column 10: expected the end of the document, found "x""#),
      (#"{'a': 1}"#, #"line 1, column 2: expected a key in double quotes or "}", found "'a'""#),
      (#"{"a" "b"}"#, #"line 1, column 6: expected ":", found "\"b\"""#),
      (
        "{\"a\": \"x\ty\"}",
        #"line 1, column 9: a control character (U+0009) must be escaped in a string, as \u0009"#
      ),
      (
        #"{"a": "\x"}"#,
        #"line 1, column 8: "\\x" is not an escape (expected \", \\, \/, \b, \f, \n, \r, \t, or \u and four hexadecimal digits)"#
      ),
      (
        #"{"a": "\u12G4"}"#,
        #"line 1, column 8: "\\u12G4" is not an escape (expected \", \\, \/, \b, \f, \n, \r, \t, or \u and four hexadecimal digits)"#
      ),
      (
        #"{"a": "abc"#,
        #"line 1, column 11: expected the closing quote of the string, found the end of the file"#
      ),
      (#"{"naïve": "é", x}"#, #"line 1, column 16: expected a key in double quotes, found "x""#),
      ("{\r\n\"a\": 1,\r\n}", #"line 3, column 1: expected a key in double quotes, found "}""#),
      ("{\"a\": \u{1B}[2J}", #"line 1, column 7: expected a value, found "\u{1b}""#),
      (
        OneLineText(
          "[\"" + String(repeating: "y", count: 40) + "\" \"" + String(repeating: "z", count: 40)
            + "\"]"),
        #"line 1, column 45: expected "," or "]", found "\"zzzzzzzzzzzzzzzzzzz…""#
      ),
    ])
  func located(text: OneLineText, reason: String) {
    #expect(throws: PackageFileError.notJSON(path: "P", reason: reason)) {
      _ = try PackageDocument.decode(Array(text.value.utf8), path: "P")
    }
  }

  @Test("bytes that are not UTF-8 are named by their place; UTF-16 is located as its characters")
  func encodings() {
    #expect(
      throws: PackageFileError.notJSON(
        path: "P", reason: "line 2, column 8: the text is not UTF-8 (byte 0xFF)")
    ) {
      _ = try PackageDocument.decode(
        Array("{\n\"a\": \"x".utf8) + [0xFF] + Array("\"}".utf8), path: "P")
    }
    let text = #"{"recipient": {"firstName": "Ånn",}"#
    let utf16: [UInt8] =
      [0xFF, 0xFE]
      + text.utf16.flatMap { unit -> [UInt8] in [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
    #expect(
      throws: PackageFileError.notJSON(
        path: "P", reason: #"line 1, column 35: expected a key in double quotes, found "}""#)
    ) {
      _ = try PackageDocument.decode(utf16, path: "P")
    }
  }

  @Test("a nesting 100,000 deep with a mistake at its end is located without exhausting the stack")
  func deepNesting() {
    let text = String(repeating: "[", count: 100_000) + "}"
    #expect(
      JSONSyntaxCheck.firstMistake(in: Array(text.utf8))?.description
        == #"line 1, column 100001: expected a value or "]", found "}""#)
  }

  @Test(
    "valid JSON has no mistake",
    arguments: [
      "-0", "1e308", "1E+2", "0.5e-3", "[]", "{}",
      " [ 1 , { \"a\" : [ true , false , null ] } ] \r\n",
      #""\u0041\n\"\\\/\b\f\r\t""#, "\"日本 🙂\"",
    ])
  func valid(text: OneLineText) {
    #expect(JSONSyntaxCheck.firstMistake(in: Array(text.value.utf8)) == nil)
  }

  @Test("the package file the editor writes has no mistake")
  func written() {
    #expect(
      JSONSyntaxCheck.firstMistake(in: Array(PackageDocument(Package.sample()).encoded())) == nil)
  }

  @Test("what the editor prints for the issue's file: the place and what was expected")
  func described() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("bad.json")
    try Data(#"{"recipient": {"firstName": "Ann",}"#.utf8).write(to: URL(fileURLWithPath: path))
    #expect(
      throws: PackageFileError.notJSON(
        path: "bad.json", reason: #"line 1, column 35: expected a key in double quotes, found "}""#)
    ) {
      _ = try PackageFile.read(path, naming: "bad.json")
    }
    #expect(
      PackageFileError.notJSON(
        path: "bad.json", reason: "line 1, column 35: expected a key in double quotes, found \"}\""
      ).description
        == #"bad.json is not a package file (not valid JSON: line 1, column 35: expected a key in double quotes, found "}")"#
    )
  }
}
