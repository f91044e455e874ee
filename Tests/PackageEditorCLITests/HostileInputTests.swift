import KVOLiteTestSupport
import PackageModel
import Testing

@testable import PackageEditorCLI

@Suite("Hostile input")
struct HostileInputTests {
  static let keyPaths = [
    "recipient.firstName", "recipient.lastName", "recipient.postalAddress.street",
    "sender.fullName",
    "sender.postalAddress.postalCode", "contents", "contents.0", "contents.0.title",
    "contents.7.weight",
    "contents.@count", "contents.@sum.weight", "contents.@avg", "contents.@bogus.x", "recipient",
    "summary", "", ".", "a..b", "@", "recipient.", "rec ipient", "🙂.x",
    "recipient.postalAddress.street.x",
  ]
  static let values = [
    "Ann", "", "\"quoted value\"", "\"a \\\"b\\\" c\"", "\"unbalanced", "\"bad \\q escape\"", "12",
    "-3",
    "1.5", "nan", "1e309", "nil", "\"two\\nlines\"", "Ünïcødé ☃", "\"\"",
    String(repeating: "x", count: 300),
    "9223372036854775807", "-9223372036854775808", "1e308", "1e19", "-0", "0.0001", "1000000",
    "1000001",
    #""A\nerror: forged""#, #""\u{1b}]0;pwned\u{7}\u{1b}[31mRED""#, #""\r\u{85}\u{2028}\u{202e}""#,
    #""\u{110000}""#, String(repeating: "n", count: 255), "x/", "/dev/null", ".",
  ]
  static let commands = [
    "help", "show", "get", "set", "add", "insert", "remove", "watch", "unwatch", "watches", "undo",
    "redo", "summary", "new", "save", "load", "sett", "HELP", "",
  ]

  static func line(_ random: inout SeededGenerator) -> [UInt8] {
    func pick(_ list: [String]) -> String { list.randomElement(using: &random)! }
    switch Int.random(in: 0..<10, using: &random) {
    case 0:
      // Raw bytes, often not UTF-8, with control characters.
      return (0..<Int.random(in: 0..<40, using: &random)).map { _ in
        UInt8.random(in: 0...255, using: &random)
      }
    case 1:
      return Array(
        String(repeating: pick(values) + " ", count: Int.random(in: 50...2000, using: &random)).utf8
      )
    case 2:
      return Array("set \(pick(keyPaths)) \u{07}\(pick(values))".utf8)
    case 3:
      return Array("save /nonexistent-dir/x.json".utf8)
        + (Bool.random(using: &random) ? [] : Array(" extra".utf8))
    case 4:
      return Array("load /nonexistent-dir/\(pick(values))".utf8)
    default:
      let command = pick(commands)
      let count = Int.random(in: 0...4, using: &random)
      let arguments = (0..<count).map { index in index == 0 ? pick(keyPaths) : pick(values) }
      return Array(([command] + arguments).joined(separator: " ").utf8)
    }
  }

  @Test(
    "tens of thousands of hostile lines: no crash, one error per failed line, nothing changed by failures"
  )
  func hostileLines() {
    var random = SeededGenerator(seed: 20_261_121)
    let output = CapturedOutput()
    let directory = TemporaryDirectory()
    let session = EditorSession(
      package: .sample(), file: nil, output: output, directory: directory.path)
    var failures = 0
    for _ in 0..<20_000 {
      let bytes = Self.line(&random)
      let before = PackageDocument(session.package)
      let errorsBefore = output.stderr.count
      let linesBefore = output.stdout.count
      let succeeded: Bool
      switch bytes.withUnsafeBytes(LineReader.decode) {
      case .invalid(let message), .failed(let message):
        session.reject(message)
        succeeded = false
      case .text(let text):
        let result = session.run(text)
        #expect(!result.quit)
        succeeded = result.succeeded
      case .hangUp:
        Issue.record("decoding a line never reports a hang-up")
        continue
      }
      for line in output.stdout[linesBefore...]
      where line.unicodeScalars.contains(where: OneLineOutput.isControl) {
        Issue.record("a raw control character reached stdout: \(line.debugDescription)")
      }
      if succeeded {
        #expect(output.stderr.count == errorsBefore)
      } else {
        failures += 1
        #expect(output.stderr.count == errorsBefore + 1)
        #expect(output.stderr.last?.hasPrefix("error: ") == true)
        #expect(PackageDocument(session.package) == before)
      }
    }
    #expect(failures > 10_000)
    #expect(
      output.stdout.allSatisfy { !$0.unicodeScalars.contains(where: OneLineOutput.isControl) })
    #expect(
      output.stderr.allSatisfy { !$0.unicodeScalars.contains(where: OneLineOutput.isControl) })
  }

  @Test("invalid UTF-8 and over-long lines are rejected by the reader")
  func reader() {
    let invalid: [UInt8] = [0x73, 0x65, 0x74, 0xFF, 0xFE]
    guard case .invalid(let message) = invalid.withUnsafeBytes(LineReader.decode) else {
      Issue.record("accepted invalid UTF-8")
      return
    }
    #expect(message == "the line is not valid UTF-8")
  }
}
