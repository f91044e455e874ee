import Foundation
import KVOLiteTestSupport
import PackageModel
import Testing

@Suite("Package files")
struct PackageFileTests {
  /// A fresh directory for one test.
  static func directory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "package-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  @Test("save then load gives the same package, and saving again the same bytes")
  func roundTrip() throws {
    let path = try Self.directory().appendingPathComponent("p.json").path
    let package = Package.sample()
    package.recipient.postalAddress.country = "Ünïcødé \"quoted\""
    try PackageFile.save(package, to: path)
    let loaded = Package()
    loaded.apply(try PackageFile.read(path))
    #expect(loaded.summary == package.summary)
    #expect(PackageDocument(loaded) == PackageDocument(package))
    let first = try Data(contentsOf: URL(fileURLWithPath: path))
    try PackageFile.save(loaded, to: path)
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == first)
    #expect(
      try FileManager.default.contentsOfDirectory(
        atPath: (path as NSString).deletingLastPathComponent) == ["p.json"])
  }

  @Test("the document is pretty JSON with a stable key order and a format version")
  func documentShape() throws {
    let text = String(
      decoding: PackageDocument(Package(contents: [try PackageContent(title: "Mug")])).encoded(),
      as: UTF8.self)
    #expect(
      text == """
        {
          "contents" : [
            {
              "quantity" : 1,
              "title" : "Mug",
              "weight" : 0
            }
          ],
          "format" : 1,
          "recipient" : {
            "firstName" : "",
            "lastName" : "",
            "postalAddress" : {
              "city" : "",
              "country" : "",
              "postalCode" : "",
              "street" : ""
            }
          },
          "sender" : {
            "firstName" : "",
            "lastName" : "",
            "postalAddress" : {
              "city" : "",
              "country" : "",
              "postalCode" : "",
              "street" : ""
            }
          }
        }

        """)
  }

  static let valid = String(decoding: PackageDocument(Package.sample()).encoded(), as: UTF8.self)

  /// A bad document and the start of the error it gets, named in the test report by `name`
  /// (the document itself may be the whole package).
  struct BadDocument: Sendable, CustomTestStringConvertible {
    let name: String
    let text: String
    let message: String
    var testDescription: String { name }
  }

  static let badDocumentCases = [
    BadDocument(name: "empty", text: "", message: "P is not a package file (not valid JSON: "),
    BadDocument(
      name: "cut short", text: "{\"format\": 1, \"recipient\": ",
      message: "P is not a package file (not valid JSON: "),
    BadDocument(name: "an array", text: "[1, 2]", message: "P: \"\" must be an object"),
    BadDocument(
      name: "format 2", text: "{\"format\": 2}",
      message: "P has format 2; this version reads format 1"),
    BadDocument(
      name: "no format", text: "{\"recipient\": {}}", message: "P lacks the field \"format\""),
    BadDocument(
      name: "no sender",
      text: valid.replacingOccurrences(of: "\"sender\"", with: "\"sendr\""),
      message: "P lacks the field \"sender\""),
    BadDocument(
      name: "a quantity in words",
      text: valid.replacingOccurrences(of: "\"quantity\" : 2", with: "\"quantity\" : \"two\""),
      message: "P: \"contents[0].quantity\" must be a whole number"),
    BadDocument(
      name: "a quantity of 0",
      text: valid.replacingOccurrences(of: "\"quantity\" : 2", with: "\"quantity\" : 0"),
      message:
        "P: \"contents[0].quantity\" is invalid: a content's quantity must be at least 1, not 0"),
    BadDocument(
      name: "an empty title",
      text: valid.replacingOccurrences(of: "\"title\" : \"Mug\"", with: "\"title\" : \"\""),
      message: "P: \"contents[1].title\" is invalid: a content's title must not be empty"),
    BadDocument(
      name: "a null first name",
      text: valid.replacingOccurrences(
        of: "\"firstName\" : \"Ann\"", with: "\"firstName\" : null"),
      message: "P: \"recipient.firstName\" must be text"),
  ]

  @Test("every class of bad document is an error naming the problem", arguments: badDocumentCases)
  func badDocuments(_ document: BadDocument) throws {
    #expect(document.text != Self.valid)
    let path = try Self.directory().appendingPathComponent("bad.json").path
    try Data(document.text.utf8).write(to: URL(fileURLWithPath: path))
    do {
      _ = try PackageFile.read(path)
      Issue.record("no error for \(document.name)")
    } catch {
      #expect("\(error)".replacingOccurrences(of: path, with: "P").hasPrefix(document.message))
    }
  }

  @Test("a missing file or a directory is unreadable")
  func unreadable() throws {
    let directory = try Self.directory()
    let missing = directory.appendingPathComponent("none.json").path
    #expect(throws: PackageFileError.unreadable(path: missing, reason: "no such file")) {
      _ = try PackageFile.read(missing)
    }
    #expect(throws: PackageFileError.self) { _ = try PackageFile.read(directory.path) }
  }

  @Test("a failed save leaves the previous file intact and nothing behind")
  func failedSave() throws {
    let directory = try Self.directory()
    let path = directory.appendingPathComponent("p.json").path
    try PackageFile.save(Package.sample(), to: path)
    let before = try Data(contentsOf: URL(fileURLWithPath: path))
    // A directory in the way of the target: the rename fails after the temporary file is written.
    let blocked = directory.appendingPathComponent("dir.json")
    try FileManager.default.createDirectory(
      at: blocked.appendingPathComponent("inside"), withIntermediateDirectories: true)
    #expect(throws: PackageFileError.self) { try PackageFile.save(Package(), to: blocked.path) }
    #expect(throws: PackageFileError.self) {
      try PackageFile.save(Package(), to: directory.appendingPathComponent("no/such/dir.json").path)
    }
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == [
        "dir.json", "p.json",
      ])
  }

  @Test("a bad file leaves the package as it was")
  func badFileLeavesPackage() throws {
    let path = try Self.directory().appendingPathComponent("bad.json").path
    try Data("{\"format\": 1}".utf8).write(to: URL(fileURLWithPath: path))
    let package = Package.sample()
    do {
      package.apply(try PackageFile.read(path))
    } catch {}
    #expect(PackageDocument(package) == PackageDocument(Package.sample()))
  }
}
