import Foundation
import KVOLiteTestSupport
import PackageModel
import Testing

@testable import PackageEditorCLI

/// A file written by a newer version or another program keeps what this editor does not
/// know: unknown fields anywhere, key order, spacing and number spellings, byte for byte where
/// nothing was edited.
@Suite("Fields the editor does not know")
struct UnknownFieldsTests {
  /// A package file as another program writes it: four-space indentation, its own key order,
  /// fields this version does not know at every level, `2.0` and `0.50`, an escaped letter.
  static let original = """
    {
        "trackingNumber": "1Z999",
        "format": 1,
        "recipient": {"firstName": "\\u0041nn", "lastName": "Smith", "phone": "+1 555", "postalAddress": {"street": "1 Main St", "city": "Springfield", "postalCode": "12345", "country": "USA", "floor": 3}},
        "sender": {"firstName": "Bob", "lastName": "Jones", "postalAddress": {"street": "", "city": "", "postalCode": "", "country": ""}},
        "contents": [
            {"title": "Books", "quantity": 2.0, "weight": 0.50, "sku": "B-1"},
            {"title": "Mug", "quantity": 1, "weight": 0.5, "sku": "M-2"}
        ],
        "notes": {"fragile": true, "list": [1, 2, {"x": null}]}
    }

    """

  /// Runs `script` on a copy of ``original`` and returns the file afterwards.
  static func edited(_ script: String, file original: String = original) throws -> String {
    let directory = TemporaryDirectory()
    try original.write(toFile: directory.file("p.json"), atomically: true, encoding: .utf8)
    let run = transcript(script, options: EditorOptions(file: "p.json"), directory: directory)
    #expect(run.stderr == "", "\(script)")
    return try String(contentsOfFile: directory.file("p.json"), encoding: .utf8)
  }

  @Test("saved with nothing edited, the file is the same, byte for byte")
  func unchanged() throws {
    #expect(try Self.edited("save") == Self.original)
    #expect(try Self.edited("set recipient.firstName Ann\nsave") == Self.original)
    #expect(try Self.edited("add Pen\nremove 2\nsave") == Self.original)
  }

  @Test("an edited value is the only bytes that change; unknown fields stay where they were")
  func editedValue() throws {
    #expect(
      try Self.edited("set recipient.lastName \"Smythe \\\"Jr\\\"\"\nsave")
        == Self.original.replacingOccurrences(
          of: #""lastName": "Smith""#, with: #""lastName": "Smythe \"Jr\"""#))
    #expect(
      try Self.edited("set contents.0.quantity 3\nsave")
        == Self.original.replacingOccurrences(of: #""quantity": 2.0"#, with: #""quantity": 3"#))
    #expect(
      try Self.edited("set recipient.postalAddress.city Ogdenville\nundo\nsave") == Self.original)
  }

  @Test("contents keep their unknown fields when lines are inserted, removed, moved by undo")
  func contentsKeepTheirFields() throws {
    let pen = """
      {
                "quantity" : 2,
                "title" : "Pen",
                "weight" : 0.1
              }
      """
    #expect(
      try Self.edited("insert 1 Pen 2 0.1\nsave")
        == Self.original.replacingOccurrences(
          of: "\"B-1\"},\n", with: "\"B-1\"},\n        \(pen),\n"))
    let withoutBooks = Self.original.replacingOccurrences(
      of: #"{"title": "Books", "quantity": 2.0, "weight": 0.50, "sku": "B-1"},"# + "\n        ",
      with: "")
    #expect(try Self.edited("remove 0\nsave") == withoutBooks)
    #expect(try Self.edited("remove 0\nsave\nundo\nsave") == Self.original)
    #expect(
      try Self.edited("remove 0\nremove 0\nsave")
        == Self.original.replacing(#/\[\n.*\n.*\n    \]/#, with: "[\n\n    ]"))
  }

  @Test("a copy and saveas keep them too; new keeps the file's own top-level fields")
  func copiesKeepThem() throws {
    let directory = TemporaryDirectory()
    try Self.original.write(toFile: directory.file("p.json"), atomically: true, encoding: .utf8)
    let run = transcript(
      "save copy.json\nsaveas other.json\nnew\nsave", options: EditorOptions(file: "p.json"),
      directory: directory)
    #expect(run.stderr == "")
    #expect(
      try String(contentsOfFile: directory.file("copy.json"), encoding: .utf8) == Self.original)
    let emptied = try String(contentsOfFile: directory.file("other.json"), encoding: .utf8)
    #expect(emptied.contains(#""trackingNumber": "1Z999""#))
    #expect(emptied.contains(#""phone": "+1 555""#) && !emptied.contains("Smith"))
    #expect(try PackageFile.read(directory.file("other.json")).contents.isEmpty)
  }

  @Test("a UTF-16 file saved unchanged keeps its encoding and byte-order mark")
  func otherEncoding() throws {
    let directory = TemporaryDirectory()
    let bytes = Data(Self.original.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] })
    let data = Data([0xFE, 0xFF]) + bytes
    try data.write(to: URL(fileURLWithPath: directory.file("p.json")))
    let run = transcript("save", options: EditorOptions(file: "p.json"), directory: directory)
    #expect(run.stderr == "")
    #expect(FileManager.default.contents(atPath: directory.file("p.json")) == data)
  }
}
