import Foundation
import KVOLiteTestSupport
import Testing

@testable import PackageEditorCLI

@Suite("Line reader")
struct LineReaderTests {
  /// Every line a reader gives for a file holding `bytes`.
  static func lines(_ bytes: [UInt8]) throws -> [LineReader.Line] {
    let directory = TemporaryDirectory()
    let path = directory.file("input")
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    let descriptor = open(path, O_RDONLY)
    #expect(descriptor >= 0)
    defer { close(descriptor) }
    let reader = LineReader(descriptor: descriptor)
    var lines: [LineReader.Line] = []
    while let line = reader.next() { lines.append(line) }
    return lines
  }

  @Test("lines end with \\n or \\r\\n; the last needs no newline; empty lines are lines")
  func plain() throws {
    #expect(
      try Self.lines(Array("a\r\nb\n\nc".utf8)) == [.text("a"), .text("b"), .text(""), .text("c")])
    #expect(try Self.lines(Array("a\n".utf8)) == [.text("a")])
    #expect(try Self.lines([]) == [])
  }

  @Test("an over-long line is rejected with its length, and the lines after it are read")
  func overLong() throws {
    let long = [UInt8](repeating: UInt8(ascii: "x"), count: 300_000)
    let limit = LineReader.maximumLength
    let exact = [UInt8](repeating: UInt8(ascii: "y"), count: limit)
    let lines = try Self.lines(
      long + Array("\nok\n".utf8) + exact + [0x0D, 0x0A] + exact + [0x79] + long)
    #expect(
      lines == [
        .invalid("the line is too long (300000 bytes; at most \(limit))"),
        .text("ok"),
        .text(String(repeating: "y", count: limit)),
        .invalid("the line is too long (\(limit + 1 + 300_000) bytes; at most \(limit))"),
      ])
  }

  @Test("invalid UTF-8 is rejected, line by line")
  func invalidUTF8() throws {
    #expect(
      try Self.lines([0x61, 0xFF, 0x0A, 0xC3, 0xA9, 0x0A, 0xED, 0xA0, 0x80]) == [
        .invalid("the line is not valid UTF-8"), .text("é"),
        .invalid("the line is not valid UTF-8"),
      ])
  }

  @Test("a read error is reported, not taken for the end of input")
  func readError() throws {
    let directory = TemporaryDirectory()
    let descriptor = open(directory.path, O_RDONLY)
    #expect(descriptor >= 0)
    defer { close(descriptor) }
    let reader = LineReader(descriptor: descriptor)
    #expect(reader.next() == .failed("cannot read standard input: is a directory"))
    #expect(reader.next() == nil)
  }

  /// A line source that fails after its lines.
  final class FailingSource: LineSource {
    var lines: [LineReader.Line]
    init(_ lines: [LineReader.Line]) { self.lines = lines }
    func next() -> LineReader.Line? { lines.isEmpty ? nil : lines.removeFirst() }
    var location: String? { nil }
  }

  @Test("a read error mid-script ends the run with status 1, in batch and interactive mode")
  func readErrorEndsTheRun() {
    for interactive in [false, true] {
      let output = CapturedOutput()
      let source = FailingSource([
        .text("set recipient.firstName Bea"), .failed("cannot read standard input: x"),
        .text("new"),
      ])
      let status = Editor.run(
        options: EditorOptions(keepGoing: true), interactive: interactive, source: source,
        output: output,
        directory: TemporaryDirectory().path)
      #expect(status == 1)
      #expect(output.stderr.first == "error: cannot read standard input: x")
      #expect(source.lines == [.text("new")])
    }
  }
}
