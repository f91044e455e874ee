import Foundation
import KVOLiteTestSupport
import PackageModel
import Testing

@testable import PackageEditorCLI

/// Files and arguments an attacker controls: a planted symbolic link, the history file, forged
/// lines in arguments, encodings that hid duplicate keys, and files made to cost memory.
@Suite("Hostile files and arguments", .serialized)
struct HostileFilesTests {
  static func write(_ text: String, to path: String) throws {
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
  }

  static func contents(_ path: String) -> String? {
    FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
  }

  @Test(
    "a symbolic link another user planted in a sticky shared directory is not followed, by save or load",
    .enabled(if: geteuid() == 0, "planting a link owned by another user needs root"))
  func plantedLink() throws {
    let directory = TemporaryDirectory()
    let shared = directory.file("shared")
    #expect(mkdir(shared, 0o777) == 0 && chmod(shared, 0o1777) == 0)
    let protected = directory.file("protected.json")
    try Self.write("root's file\n", to: protected)
    #expect(symlink(protected, shared + "/package.json") == 0)
    #expect(lchown(shared + "/package.json", 65_534, 65_534) == 0)
    let run = transcript(
      "save shared/package.json\nload shared/package.json",
      options: EditorOptions(keepGoing: true), directory: directory)
    let refusal =
      "it is a symbolic link that another user owns in a shared directory; not following it"
    #expect(
      run.stderr == """
        error: save: cannot write shared/package.json: \(refusal); saveas FILE saves the package elsewhere
        error: load: cannot read shared/package.json: \(refusal)

        """)
    #expect(Self.contents(protected) == "root's file\n")
    // The user's own link in the same directory is followed.
    #expect(symlink(directory.file("mine.json"), shared + "/mine.json") == 0)
    #expect(transcript("save shared/mine.json", directory: directory).status == 0)
    #expect(Self.contents(directory.file("mine.json"))?.hasPrefix("{") == true)
  }

  @Test("the history file is created 0600 in a 0700 directory")
  func historyIsPrivate() throws {
    let directory = TemporaryDirectory()
    let file = directory.file("state/package-editor/history")
    #expect(History(file: file).add("set recipient.firstName secret") == nil)
    var info = stat()
    #expect(stat(file, &info) == 0 && info.st_mode & 0o777 == 0o600)
    #expect(
      stat(directory.file("state/package-editor"), &info) == 0 && info.st_mode & 0o777 == 0o700)
    // Appending to a file someone made readable makes it private again.
    #expect(chmod(file, 0o644) == 0)
    #expect(History(file: file).add("get recipient") == nil)
    #expect(stat(file, &info) == 0 && info.st_mode & 0o777 == 0o600)
  }

  @Test("a history file that is a symbolic link is neither read nor written through")
  func historyLink() throws {
    let directory = TemporaryDirectory()
    #expect(mkdir(directory.file("state"), 0o700) == 0)
    let target = directory.file("elsewhere")
    try Self.write("planted\n", to: target)
    let file = directory.file("state/history")
    #expect(symlink(target, file) == 0)
    var warnings: [String] = []
    let history = History(file: file) { warnings.append($0) }
    #expect(history.entries.isEmpty)
    #expect(warnings == ["cannot read the history file \(file): it is a symbolic link"])
    #expect(history.add("set recipient.firstName secret") == nil)
    #expect(Self.contents(target) == "planted\n")
  }

  @Test("escape sequences in the history file come back escaped, never raw")
  func historyEscapes() throws {
    let directory = TemporaryDirectory()
    let file = directory.file("history")
    try Self.write("get \u{1B}]0;owned\u{7}\nshow\u{1B}[2J\n", to: file)
    #expect(History(file: file).entries == [#"get \u{1b}]0;owned\u{7}"#, #"show\u{1b}[2J"#])
  }

  @Test(
    "a save that cannot write a read-only file says how to make it writable, or to save elsewhere"
  )
  func readOnlyWayOut() throws {
    let directory = TemporaryDirectory()
    for name in ["ro.json", "it's mine.json"] {
      try Self.write(DataSafetyTests.document("Ann"), to: directory.file(name))
      #expect(chmod(directory.file(name), 0o444) == 0)
    }
    let run = transcript(
      "set recipient.firstName Bea\nsave\nsave \"it's mine.json\"\nsaveas copy.json",
      options: EditorOptions(file: "ro.json", keepGoing: true), directory: directory)
    #expect(
      run.stderr == #"""
        error: save: cannot write ro.json: the file is read-only (chmod u+w ro.json makes it writable); saveas FILE saves the package elsewhere
        error: save: cannot write it's mine.json: the file is read-only (chmod u+w 'it'\''s mine.json' makes it writable); saveas FILE saves the package elsewhere

        """#)
    #expect(
      run.stdout
        == "summary: Bea · from (no name) · no items\nsaved copy.json (now editing copy.json, was ro.json)\n"
    )
    #expect(Self.contents(directory.file("ro.json")) == DataSafetyTests.document("Ann"))
  }

  @Test("usage errors print the arguments escaped: no argument forges a line")
  func usageErrorsAreEscaped() throws {
    let directory = TemporaryDirectory()
    let run = try EditorProcess.run(["a", "b\nerror: forged"], in: directory.path)
    #expect(run.status == 64)
    #expect(
      run.stderr
        == #"error: only one FILE may be given (got "a" and "b\nerror: forged"); package-editor --help shows the usage"#
        + "\n")
  }

  @Test("bidirectional and invisible characters are escaped; the joiners that scripts need are not")
  func invisibleCharacters() {
    for (scalar, escape) in [
      ("\u{061C}", #"\u{61c}"#), ("\u{180E}", #"\u{180e}"#), ("\u{200B}", #"\u{200b}"#),
      ("\u{2060}", #"\u{2060}"#), ("\u{2064}", #"\u{2064}"#), ("\u{FEFF}", #"\u{feff}"#),
      ("\u{202E}", #"\u{202e}"#), ("\u{2067}", #"\u{2067}"#),
    ] {
      #expect(OneLineOutput.hasControl("a" + scalar + "b"))
      #expect(OneLineOutput.escaped("a" + scalar + "b") == "a" + escape + "b")
    }
    for kept in ["👩\u{200D}💻", "می\u{200C}خواهم", "é", "日本"] {
      #expect(!OneLineOutput.hasControl(kept))
      #expect(OneLineOutput.escaped(kept) == kept)
    }
  }

  /// A document with the key `firstName` twice in the recipient.
  static let duplicated = """
    {"format": 1, "recipient": {"firstName": "A", "firstName": "B", "lastName": "", "postalAddress": {"street": "", "city": "", "postalCode": "", "country": ""}}, "sender": {"firstName": "", "lastName": "", "postalAddress": {"street": "", "city": "", "postalCode": "", "country": ""}}, "contents": []}
    """

  /// `text` in `encoding`, with a byte-order mark if `mark`.
  static func bytes(_ text: String, _ encoding: String.Encoding, mark: Bool) -> [UInt8] {
    let body = Array(text.data(using: encoding)!)
    guard mark else { return body }
    switch encoding {
    case .utf8: return [0xEF, 0xBB, 0xBF] + body
    case .utf16BigEndian: return [0xFE, 0xFF] + body
    case .utf16LittleEndian: return [0xFF, 0xFE] + body
    case .utf32BigEndian: return [0, 0, 0xFE, 0xFF] + body
    default: return [0xFF, 0xFE, 0, 0] + body
    }
  }

  @Test(
    "a duplicate key is refused whatever the encoding: a byte-order mark, UTF-16 or UTF-32",
    arguments: [
      (String.Encoding.utf8, true), (.utf16BigEndian, true), (.utf16LittleEndian, true),
      (.utf16BigEndian, false), (.utf16LittleEndian, false), (.utf32BigEndian, true),
      (.utf32LittleEndian, true), (.utf32BigEndian, false), (.utf32LittleEndian, false),
    ])
  func duplicateKeyInAnyEncoding(encoding: String.Encoding, mark: Bool) {
    let bytes = Self.bytes(Self.duplicated, encoding, mark: mark)
    #expect(throws: PackageFileError.duplicateKey(path: "p.json", field: "recipient.firstName")) {
      try PackageDocument.decode(bytes, path: "p.json")
    }
    // The same document without the duplicate loads, in the same encoding.
    let valid = Self.duplicated.replacingOccurrences(of: #""firstName": "A", "#, with: "")
    let document = try? PackageDocument.decode(
      Self.bytes(valid, encoding, mark: mark), path: "p.json")
    #expect(document?.recipient.firstName == "B")
  }

  @Test("text that is not valid UTF-16 is refused as such")
  func invalidUTF16() {
    #expect(throws: PackageFileError.notJSON(path: "p.json", reason: "it is not valid UTF-16")) {
      try PackageDocument.decode([0xFF, 0xFE, 0x7B, 0x00, 0x00, 0xD8], path: "p.json")
    }
  }

  @Test("a file over the size limit is refused by its size, before it is read")
  func hugeFileRefusedBySize() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("huge.json")
    let descriptor = open(path, O_WRONLY | O_CREAT, 0o600)
    #expect(descriptor >= 0 && ftruncate(descriptor, 60 << 20) == 0)  // sparse: costs nothing
    close(descriptor)
    #expect(
      throws: PackageFileError.unreadable(
        path: "huge.json", reason: "it is too large (a package file has at most 16 MiB)")
    ) { try PackageFile.read(path, naming: "huge.json") }
  }

  @Test("a file of more values than any package is refused before it is decoded")
  func tooManyValues() {
    let text = #"{"format": 1, "x": ["# + String(repeating: "0,", count: 1_000_000) + "0]}"
    #expect(
      throws: PackageFileError.notJSON(
        path: "p.json", reason: "it holds more than 1000000 values, more than any package")
    ) { try PackageDocument.decode(Array(text.utf8), path: "p.json") }
  }
}
