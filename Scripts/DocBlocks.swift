// Extracts the ```swift blocks of documents into a package that compiles and runs them
// (Scripts/check-doc-blocks builds it, runs it and checks the manifests). A block's kind is
// said by an HTML comment on the line before its fence, which neither DocC nor GitHub shows;
// the fence stays ```swift, since DocC highlights an info string of more than one word
// (```swift fragment) as nothing:
//
//   (none)                     part of the document's program: a document's blocks, in order,
//                              are one main.swift, compiled in Swift 6 mode and run
//   <!-- swift: shared -->     the same, and also compiled at the start of every other
//                              document's program: the models other articles build on
//   <!-- swift: fragment -->   not a program (an excerpt, one of two versions of a type):
//                              type-checked at its place in the program, inside a function that
//                              is never called
//   <!-- swift: manifest -->   a Package.swift, or `.package(…)` or `.target(…)` lines of one:
//                              evaluated as written, and again with KVOLite's URL replaced by
//                              this checkout, which checks its product and trait names
//   <!-- swift: apple -->      code for Apple's frameworks (an `NSObject` model), shown for
//                              comparison: not compiled, since Linux cannot
//
// A comment that states an equality in a program block, `// seen == ["Ann"]` on a line of its
// own or after a statement, is checked when the program passes it. Each program imports
// KVOLiteBridge (KVOLite and Combine) and the module whose catalog holds the document, and
// DocBlockSupport (Scripts/DocBlockSupport.swift), which checks the claims.
//
//   swift Scripts/DocBlocks.swift OUTPUT REPOSITORY DOCUMENT…
import Foundation

enum Kind: String {
  case program = ""
  case shared, fragment, manifest, apple
}

struct Block {
  let document: String
  /// The line of the block's first line of code (the one after the fence), from 1.
  let line: Int
  let kind: Kind
  let lines: [String]
}

struct Failure: Error, CustomStringConvertible { let description: String }

/// The swift blocks of `document`, whose text is `text`.
func blocks(of document: String, _ text: String) throws -> [Block] {
  var found: [Block] = []
  let lines = text.components(separatedBy: "\n")
  let marker = #/^ *<!-- swift: (?<kind>[a-z]+) -->$/#
  var kind: (name: Substring, line: Int)?
  var index = 0
  while index < lines.count {
    let line = lines[index].trimmingCharacters(in: .whitespaces)
    index += 1
    if let match = lines[index - 1].wholeMatch(of: marker) {
      kind = (match.kind, index)
      continue
    }
    defer { kind = nil }
    guard line.hasPrefix("```") else {
      if let kind { throw Failure(description: "\(document):\(kind.line): no ```swift under it") }
      continue
    }
    let start = index
    while index < lines.count, lines[index].trimmingCharacters(in: .whitespaces) != "```" {
      index += 1
    }
    guard index < lines.count else {
      throw Failure(description: "\(document):\(start): unclosed block")
    }
    index += 1
    if line.hasPrefix("```swift ") || (kind != nil && line != "```swift") {
      throw Failure(
        description: "\(document):\(start): \"\(line)\": a swift block's fence is ```swift, "
          + "its kind a comment on the line before (<!-- swift: fragment -->)")
    }
    guard line == "```swift" else { continue }
    let named = kind.map { String($0.name) }
    guard let blockKind = Kind(rawValue: named ?? ""), named != "" else {
      throw Failure(
        description: "\(document):\(start - 1): unknown kind of swift block \"\(named ?? "")\" "
          + "(shared, fragment, manifest or apple)")
    }
    let indent = lines[start - 1].prefix { $0 == " " }.count
    found.append(
      Block(
        document: document, line: start + 1, kind: blockKind,
        lines: lines[start..<index - 1].map {
          String($0.dropFirst(min(indent, $0.prefix { $0 == " " }.count)))
        }))
  }
  return found
}

/// A program line with its claim, if its comment states one, turned into a check on the same
/// line (so that the compiler's line numbers stay the document's).
func checked(_ line: String, document: String, number: Int) -> String {
  let claimPattern =
    #/^(?<code>(.*[^ ] {2})?) *// (?<actual>[A-Za-z_][A-Za-z0-9_.!?]*) == (?<expected>.+)$/#
  guard let match = line.wholeMatch(of: claimPattern) else { return line }
  let claim = "\(match.actual) == \(match.expected)"
  let quoted = claim.replacingOccurrences(of: "\\", with: "\\\\")
    .replacingOccurrences(of: "\"", with: "\\\"")
  let check =
    "_docExpect(\(match.actual), \(match.expected), \"\(quoted)\", at: \"\(document):\(number)\")"
  let code = match.code.trimmingCharacters(in: .whitespaces)
  return String(line.prefix { $0 == " " }) + (code.isEmpty ? check : code + "; " + check)
}

/// The Swift source of `block` in a program: its lines under the document's name and lines.
func source(of block: Block) -> [String] {
  var source = ["#sourceLocation(file: \"\(block.document)\", line: \(block.line))"]
  switch block.kind {
  case .program, .shared:
    source += block.lines.enumerated().map {
      checked($1, document: block.document, number: block.line + $0)
    }
    source.append("#sourceLocation()")
  case .fragment:
    source.removeAll()
    source.append("@MainActor func fragment\(block.line)() async throws {")
    source.append("#sourceLocation(file: \"\(block.document)\", line: \(block.line))")
    source += block.lines
    source += ["#sourceLocation()", "}"]
  case .manifest, .apple: return []
  }
  return source
}

/// The module a document's program imports besides KVOLiteBridge: its catalog's.
func module(of document: String) -> String? {
  let parts = document.split(separator: "/")
  guard parts.count >= 3, parts[0] == "Sources" else { return nil }
  return String(parts[1])
}

/// An executable target's name for a document: `KVOLite_GettingStarted`, `README`.
func targetName(of document: String) -> String {
  let name = (document as NSString).deletingPathExtension
  let parts = name.split(separator: "/").filter { !$0.hasSuffix(".docc") && $0 != "Sources" }
  let joined = parts.joined(separator: "_")
  return String(joined.map { $0.isLetter || $0.isNumber ? $0 : "_" })
}

/// A manifest block as a Package.swift, under the document's name and lines: a whole manifest
/// as it is; a piece of one (`.package(…)` lines, or a `.target(…)`) in a manifest of its own
/// that depends on KVOLite.
func manifest(of block: Block) -> String {
  let location = "#sourceLocation(file: \"\(block.document)\", line: "
  if block.lines.first?.hasPrefix("// swift-tools-version") == true {
    return ([block.lines[0], location + "\(block.line + 1))"] + block.lines.dropFirst())
      .joined(separator: "\n")
  }
  let isDependency = block.lines.first?.hasPrefix(".package(") == true
  let kvolite = #".package(url: "https://github.com/example/KVOLite.git", from: "0.1.0")"#
  return """
    // swift-tools-version: 6.1
    import PackageDescription

    \(location)\(block.line - 1))
    let piece: [\(isDependency ? "Package.Dependency" : "Target")] = [
    \(block.lines.joined(separator: "\n"))
    ]
    #sourceLocation()
    let package = Package(
      name: "MyApp",
      dependencies: \(isDependency ? "piece" : "[\(kvolite)]"),
      targets: \(isDependency ? "[]" : "piece")
    )
    """
}

/// `manifest` with KVOLite's URL replaced by the checkout at `repository`, if it names it.
func localManifest(_ manifest: String, repository: String) -> String? {
  let pattern = #"\.package\(url: "[^"]*KVOLite(\.git)?", (from|branch|exact): "[^"]*""#
  let local = manifest.replacingOccurrences(
    of: pattern, with: ".package(name: \"KVOLite\", path: \"\(repository)\"",
    options: .regularExpression)
  return local == manifest ? nil : local
}

/// Checks that every product a manifest block names in KVOLite is one of `products`.
func checkProducts(_ block: Block, _ products: Set<String>) throws {
  let pattern = #/\.product\(name: "([^"]+)", package: "KVOLite"/#
  for (offset, line) in block.lines.enumerated() {
    for match in line.matches(of: pattern) where !products.contains(String(match.1)) {
      throw Failure(
        description: "\(block.document):\(block.line + offset): KVOLite has no product "
          + "\"\(match.1)\" (its products: \(products.sorted().joined(separator: ", ")))")
    }
  }
}

// MARK: - The command line

let arguments = CommandLine.arguments.dropFirst()
guard arguments.count >= 3 else {
  FileHandle.standardError.write(Data("usage: DocBlocks.swift OUTPUT REPOSITORY DOCUMENT…\n".utf8))
  exit(64)
}
let output = URL(fileURLWithPath: arguments[arguments.startIndex])
let repository = arguments[arguments.startIndex + 1]
let documents = Array(arguments.dropFirst(2))
let manifestText = try String(contentsOfFile: repository + "/Package.swift", encoding: .utf8)
let products = Set(manifestText.matches(of: #/\.library\(name: "([^"]+)"/#).map { String($0.1) })

do {
  var all: [[Block]] = []
  for document in documents {
    let text = try String(contentsOfFile: document, encoding: .utf8)
    all.append(try blocks(of: document, text))
  }
  let files = FileManager.default
  func write(_ text: String, _ path: String) throws {
    let url = output.appendingPathComponent(path)
    try files.createDirectory(
      at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(text.utf8).write(to: url)
  }
  let support = try String(
    contentsOfFile: repository + "/Scripts/DocBlockSupport.swift", encoding: .utf8)
  try write(support, "programs/Sources/DocBlockSupport/DocBlockSupport.swift")
  var targets: [String] = []
  var manifests: [String] = []
  for (index, blocks) in all.enumerated() {
    let document = documents[index]
    for block in blocks where block.kind == .manifest {
      try checkProducts(block, products)
      let name = "\(targetName(of: document))_\(block.line)"
      let text = manifest(of: block)
      try write(text + "\n", "manifests/\(name)/as-written/Package.swift")
      if let local = localManifest(text, repository: repository) {
        try write(local + "\n", "manifests/\(name)/local/Package.swift")
      }
      manifests.append(name)
    }
    guard blocks.contains(where: { [.program, .shared, .fragment].contains($0.kind) }) else {
      continue
    }
    let shared = all.enumerated().filter { $0.offset != index }.flatMap { $0.element }
      .filter { $0.kind == .shared }
    let imports = ["DocBlockSupport", "KVOLiteBridge"] + [module(of: document)].compactMap { $0 }
    var program = ["// Generated from \(document) by Scripts/DocBlocks.swift."]
    program += Array(Set(imports)).sorted().map { "import \($0)" }
    program += (shared + blocks).flatMap(source(of:))
    program.append("_docFinish()")
    let name = targetName(of: document)
    try write(program.joined(separator: "\n") + "\n", "programs/Sources/\(name)/main.swift")
    targets.append(name)
  }
  let modules = Set(documents.compactMap(module(of:))).union(["KVOLiteBridge"]).sorted()
  let packageManifest = """
    // swift-tools-version: 6.3
    import PackageDescription

    let kvolite: [Target.Dependency] = [\(modules.map { ".product(name: \"\($0)\", package: \"KVOLite\")" }.joined(separator: ", "))]
    let package = Package(
      name: "DocBlocks",
      platforms: [.macOS(.v15), .iOS(.v18)],
      dependencies: [.package(name: "KVOLite", path: "\(repository)")],
      targets: [.target(name: "DocBlockSupport")] + [\(targets.map { "\"\($0)\"" }.joined(separator: ", "))].map {
        .executableTarget(name: $0, dependencies: ["DocBlockSupport"] + kvolite)
      },
      swiftLanguageModes: [.v6]
    )

    """
  try write(packageManifest, "programs/Package.swift")
  try write(targets.map { $0 + "\n" }.joined(), "programs.txt")
  try write(manifests.map { $0 + "\n" }.joined(), "manifests.txt")
} catch {
  FileHandle.standardError.write(Data("\(error)\n".utf8))
  exit(1)
}
