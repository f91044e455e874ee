// Checks that every public declaration a module declares has a documentation comment, enum
// cases included (swift-format's rule does not see them). Reads the symbol graphs that
// swift-symbolgraph-extract wrote into the directories given, and prints one line per
// undocumented declaration with its file and line, and a count per module; exits 1 if any.
//
//   swift Scripts/check-symbol-docs.swift SYMBOL-GRAPH-DIRECTORY…
import Foundation

struct Graph: Decodable {
  struct Module: Decodable { let name: String }
  struct Symbol: Decodable {
    struct Names: Decodable { let title: String }
    struct Kind: Decodable { let identifier: String }
    struct Location: Decodable {
      struct Position: Decodable { let line: Int }
      let uri: String
      let position: Position
    }
    struct DocComment: Decodable {}
    let names: Names
    let kind: Kind
    let pathComponents: [String]
    let location: Location?
    let docComment: DocComment?
  }
  let module: Module
  let symbols: [Symbol]
}

var undocumented = 0
/// Each module's declarations, as file:line (a protocol extension's member is listed once per
/// conforming type in the graph, but declared once).
var declarations: [String: Set<String>] = [:]
var reported: Set<String> = []
for directory in CommandLine.arguments.dropFirst() {
  let files = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
  for file in files.sorted() where file.hasSuffix(".symbols.json") {
    let data = try Data(contentsOf: URL(fileURLWithPath: directory + "/" + file))
    let graph = try JSONDecoder().decode(Graph.self, from: data)
    for symbol in graph.symbols {
      // Declared in this package's sources: not synthesized, not inherited from elsewhere.
      guard let location = symbol.location,
        location.uri.contains("/Sources/\(graph.module.name)/")
      else { continue }
      let path = location.uri.replacingOccurrences(of: "file://", with: "")
      let declaration = "\(path):\(location.position.line + 1)"
      declarations[graph.module.name, default: []].insert(declaration)
      if symbol.docComment == nil, reported.insert(declaration).inserted {
        undocumented += 1
        print(
          "\(path):\(location.position.line + 1): \(symbol.kind.identifier) "
            + "\(symbol.pathComponents.joined(separator: ".")) has no documentation comment")
      }
    }
  }
}
for (module, lines) in declarations.sorted(by: { $0.key < $1.key }) {
  print("\(module): \(lines.count) public declarations")
}
if undocumented > 0 {
  print("\(undocumented) public declarations have no documentation comment")
  exit(1)
}
