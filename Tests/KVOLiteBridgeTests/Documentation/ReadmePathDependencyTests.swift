import Foundation
import KVOLiteTestSupport
import Testing

/// The README's lines for depending on a local checkout, resolved by SwiftPM: a package beside a
/// checkout of this repository (a symbolic link to it, named as the case says) that uses the
/// line and names the product `.product(name: "KVOLite", package: "KVOLite")`. SwiftPM names a
/// path dependency after its directory, so the plain line works only for a directory named
/// KVOLite, and the line with `name:` works whatever the directory's name.
@Suite("README: a local checkout as a dependency")
struct ReadmePathDependencyTests {
  /// The package's root directory, found from this file's place in it.
  static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  /// The README's line for a checkout in a directory named KVOLite.
  static let byDirectoryName = """
    .package(path: "../KVOLite")
    """

  /// The README's line for a checkout in a directory named otherwise.
  static let byName = """
    .package(name: "KVOLite", path: "../kvolite-main")
    """

  /// A manifest as the README's, with `dependency` as its one dependency.
  static func manifest(_ dependency: String) -> String {
    """
    // swift-tools-version: 6.0
    import PackageDescription

    let package = Package(
      name: "MyApp",
      platforms: [.macOS(.v15), .iOS(.v18)],
      dependencies: [\(dependency)],
      targets: [
        .executableTarget(
          name: "MyApp", dependencies: [.product(name: "KVOLite", package: "KVOLite")])
      ]
    )
    """
  }

  /// Runs `swift package show-dependencies` on a package using `dependency`, beside a link named
  /// `checkout` to this repository; returns its status and output.
  static func resolve(_ dependency: String, checkout: String) throws -> (Int32, String) {
    let directory = TemporaryDirectory()
    let app = URL(fileURLWithPath: directory.file("MyApp"))
    try FileManager.default.createDirectory(
      at: app.appendingPathComponent("Sources/MyApp"), withIntermediateDirectories: true)
    try Data("import KVOLite\n".utf8).write(
      to: app.appendingPathComponent("Sources/MyApp/main.swift"))
    try Data(manifest(dependency).utf8).write(to: app.appendingPathComponent("Package.swift"))
    try FileManager.default.createSymbolicLink(
      atPath: directory.file(checkout), withDestinationPath: root.path)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["swift", "package", "show-dependencies", "--package-path", app.path]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    try process.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return (process.terminationStatus, text)
  }

  @Test("the README shows both lines, each a manifest block of its own")
  func readmeShowsThem() throws {
    let readme = try String(
      contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
    for line in [Self.byDirectoryName, Self.byName] {
      #expect(readme.contains("<!-- swift: manifest -->\n```swift\n\(line)\n```\n"))
    }
  }

  @Test("a checkout named KVOLite: the plain line")
  func namedKVOLite() throws {
    let (status, output) = try Self.resolve(Self.byDirectoryName, checkout: "KVOLite")
    #expect(status == 0, "\(output)")
  }

  @Test("a checkout named otherwise: the line with name:")
  func namedOtherwise() throws {
    let (status, output) = try Self.resolve(Self.byName, checkout: "kvolite-main")
    #expect(status == 0, "\(output)")
  }

  @Test("a checkout named otherwise with the plain line: SwiftPM knows no package KVOLite")
  func plainLineElsewhere() throws {
    let line = #".package(path: "../kvolite-main")"#
    let (status, output) = try Self.resolve(line, checkout: "kvolite-main")
    #expect(status == 1)
    #expect(output.contains("unknown package 'KVOLite' in dependencies of target 'MyApp'"))
  }
}
