import Foundation
import KVOLiteTestSupport
import PackageModel
import Testing

@testable import PackageEditorCLI

@Suite("Output hygiene and numbers")
struct OutputHygieneTests {
  static let sample =
    "Ann Smith, 1 Main St · from Bob Jones · 2 items (3 pcs, 1.5 kg): Books ×2, Mug"

  @Test("the byte-level check finds exactly the control characters, wherever they stand")
  func controlCheck() {
    // Every scalar below U+3000 (all the controls, and every neighbour of their UTF-8 forms),
    // then a sample of the rest, each alone and between ASCII and two-byte text.
    let scalars =
      (0..<0x3000).compactMap(Unicode.Scalar.init)
      + stride(from: 0x3000, through: 0x10FFFF, by: 97).compactMap { Unicode.Scalar(UInt32($0)) }
    for scalar in scalars {
      let alone = String(Character(scalar))
      let expected = OneLineOutput.isControl(scalar)
      #expect(OneLineOutput.hasControl(alone) == expected)
      #expect(OneLineOutput.hasControl("a·" + alone + "×b") == expected)
    }
    #expect(!OneLineOutput.hasControl(Self.sample) && !OneLineOutput.hasControl(""))
  }

  @Test(
    "a value with a newline or an escape sequence cannot forge a line or reach the terminal raw")
  func forgedLines() {
    let run = transcript(
      #"""
      set recipient.firstName "A\nerror: forged\r\u{1b}]0;pwned\u{7}\u{1b}[31mRED\u{202e}"
      get recipient.firstName
      get recipient.lastName
      watch recipient.firstName
      set recipient.firstName "\u{85}\u{2028}"
      """#)
    #expect(
      run.stdout == #"""
        summary: A\nerror: forged\r\u{1b}]0;pwned\u{7}\u{1b}[31mRED\u{202e} Smith, 1 Main St · from Bob Jones · 2 items (3 pcs, 1.5 kg): Books ×2, Mug
        "A\nerror: forged\r\u{1b}]0;pwned\u{7}\u{1b}[31mRED\u{202e}"
        Smith
        recipient.firstName: setting "A\nerror: forged\r\u{1b}]0;pwned\u{7}\u{1b}[31mRED\u{202e}" -> "\u{85}\u{2028}"
        summary: \u{85}\u{2028} Smith, 1 Main St · from Bob Jones · 2 items (3 pcs, 1.5 kg): Books ×2, Mug

        """#)
    #expect(run.stderr == "")
  }

  @Test("a loaded file's control characters are escaped in show, get and the summary")
  func loadedControlCharacters() throws {
    let directory = TemporaryDirectory()
    let package = Package.sample()
    package.recipient.firstName = "\u{1b}]0;pwned\u{07}\u{1b}[31mRED"
    package.contents = [try PackageContent(title: "Lamp\nerror: x", quantity: 2, weight: 1)]
    try PackageFile.save(package, to: directory.file("evil.json"))
    let run = transcript(
      "get recipient.firstName\nget contents.0.title\nsummary\nshow",
      options: EditorOptions(file: "evil.json"),
      directory: directory)
    let lines = run.stdout.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(
      Array(lines.prefix(3)) == [
        #""\u{1b}]0;pwned\u{7}\u{1b}[31mRED""#,
        #""Lamp\nerror: x""#,
        #"summary: \u{1b}]0;pwned\u{7}\u{1b}[31mRED Smith, 1 Main St · from Bob Jones · 1 item (2 pcs, 2 kg): Lamp\nerror: x ×2"#,
      ])
    #expect(lines.contains(#"contents.0 = "Lamp\nerror: x" ×2, 1 kg each"#))
    #expect(!run.stdout.unicodeScalars.contains { OneLineOutput.isControl($0) && $0 != "\n" })
    #expect(run.stderr == "" && run.status == 0)
  }

  @Test(
    "numbers past the bounds are errors, never crashes; the package is unchanged",
    arguments: [
      (
        "add T 1 1e19",
        "add: a content's weight must be a number of kilograms from 0 to 1000000, not 1e+19"
      ),
      (
        "add T 1 1e308",
        "add: a content's weight must be a number of kilograms from 0 to 1000000, not 1e+308"
      ),
      (
        "add T 9223372036854775807",
        "add: a content's quantity must be at most 1000000, not 9223372036854775807"
      ),
      ("add T -0", "add: a content's quantity must be at least 1, not 0"),
      (
        "add T 1 0.0001",
        "add: a content's weight is kept to the gram (at most 3 decimals), not 0.0001"
      ),
      ("insert 0 T 1000001", "insert: a content's quantity must be at most 1000000, not 1000001"),
    ])
  func numbers(line: String, message: String) {
    let run = transcript(line + "\nsummary")
    #expect(run.stdout == "")
    #expect(run.stderr == "error: \(message)\n")
    #expect(run.status == 1)
    #expect(
      transcript(line + "\nsummary", options: EditorOptions(keepGoing: true)).stdout
        == "summary: \(Self.sample)\n")
  }

  @Test("totals cannot pass their limits, and stay exact through adds and removes")
  func totals() {
    let full = transcript(
      "new\nadd Ore 1000000 1000000\nadd Pin 1 0.001\nundo\nadd Pin 1 0.001\nsummary",
      options: EditorOptions(keepGoing: true))
    #expect(
      full.stderr
        == "error: add: the package's totals would pass their limits (1000000000000 pieces, 1000000000000 kg)\n"
    )
    #expect(
      full.stdout.split(separator: "\n").last
        == "summary: (no name) · from (no name) · 1 item (1 pc, 0.001 kg): Pin")
    let back = transcript("add X 1 100000\nadd Y 3 0.1\nremove 2\nremove 2\nsummary")
    #expect(back.stdout.split(separator: "\n").last.map(String.init) == "summary: \(Self.sample)")
  }

  @Test("a file whose numbers pass the bounds is refused at load and at start-up, with status 1")
  func hostileNumbersInFiles() throws {
    let directory = TemporaryDirectory()
    let valid = String(decoding: PackageDocument(.sample()).encoded(), as: UTF8.self)
    let cases = [
      (
        "\"quantity\" : 2", "\"quantity\" : 9223372036854775807",
        "contents[0].quantity\" is invalid"
      ),
      (
        "\"quantity\" : 2", "\"quantity\" : 1.5",
        "contents[0].quantity\" is invalid: a quantity must be a whole number, not 1.5"
      ),
      ("\"weight\" : 0.5", "\"weight\" : 1e19", "contents[0].weight\" is invalid"),
      ("\"weight\" : 0.5", "\"weight\" : -0.0001", "contents[0].weight\" is invalid"),
      (
        "\"quantity\" : 2", "\"quantity\" : 2, \"quantity\" : 3",
        "contents[0].quantity\" is given twice"
      ),
    ]
    for (original, replacement, expected) in cases {
      #expect(valid.contains(original))
      try Data(valid.replacingOccurrences(of: original, with: replacement).utf8)
        .write(to: URL(fileURLWithPath: directory.file("bad.json")))
      let load = transcript("load bad.json\nsummary", directory: directory)
      #expect(load.stdout == "")
      #expect(
        load.stderr.hasPrefix("error: load: bad.json: \"") && load.stderr.contains(expected),
        "\(load.stderr)")
      let start = transcript(
        "summary", options: EditorOptions(file: "bad.json"), directory: directory)
      #expect(start.stderr.hasPrefix("error: cannot start: bad.json: \"") && start.status == 1)
    }
  }

  @Test(
    "a set to the value a key has says unchanged, on every key: no notification, no undo step, no unsaved change"
  )
  func unchangedSets() {
    for key in [
      "recipient.firstName", "recipient.postalAddress.street", "recipient.postalAddress.city",
      "contents.1.title", "contents.1.quantity", "contents.0.weight",
    ] {
      let value = transcript("get \(key)").stdout.dropLast()
      // An element's key cannot be watched by index: its line is replaced, and `contents`
      // shows that.
      let watched = key.hasPrefix("contents.") ? "contents" : key
      let again = transcript(
        "watch \(watched) new\nset \(key) \"\(value)\"\nundo\nquit", interactive: true)
      let shown = Int(value) != nil || Double(value) != nil ? String(value) : "\"\(value)\""
      #expect(
        again.stdout.split(separator: "\n").dropFirst(2).joined(separator: "\n")
          == "\(key) = \(shown) (unchanged)",
        "\(key)")
      #expect(again.stderr == "error: undo: nothing to undo\n", "\(key)")
    }
    // The same value in another spelling is the same value: 0.50 kg is 0.5 kg.
    #expect(
      transcript("set contents.0.weight 0.50").stdout == "contents.0.weight = 0.5 (unchanged)\n")
  }

  @Test("a set that does not change the summary prints what it changed: every set prints one line")
  func setWithoutSummaryChange() {
    let run = transcript(
      "set recipient.postalAddress.city Ogdenville\nset sender.postalAddress.country \"A\\nB\"")
    #expect(
      run.stdout == """
        recipient.postalAddress.city = "Ogdenville"
        sender.postalAddress.country = "A\\nB"

        """)
    #expect(run.stderr == "")
  }
}
