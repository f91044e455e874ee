import Foundation
import KVOLite
import PackageModel

extension EditorSession {
  /// Tab completion for the text before the cursor: the word being typed and the candidates
  /// that may replace it (each starting with it), sorted.
  ///
  /// The first word completes to command names; a key path argument (`get`, `set`, `watch`,
  /// `unwatch`) one segment at a time from the model's declared keys (`recip` → `recipient.`),
  /// content indexes and collection operators included; `watch`'s options after its key path;
  /// file names for `save` and `load`. Nothing is completed inside quotes.
  func completions(for beforeCursor: String) -> (word: String, candidates: [String]) {
    guard beforeCursor.filter({ $0 == "\"" }).count % 2 == 0 else { return ("", []) }
    let words = beforeCursor.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
    let endsWithSpace = beforeCursor.last == " " || beforeCursor.isEmpty
    let word = endsWithSpace ? "" : (words.last ?? "")
    let position = endsWithSpace ? words.count : words.count - 1
    let candidates: [String]
    if position == 0 {
      candidates = (Command.names + ["quit!"]).filter { $0.hasPrefix(word) }
    } else {
      switch (words[0], position) {
      case ("get", 1), ("set", 1), ("watch", 1), ("unwatch", 1): candidates = keyPathSegments(completing: word)
      case ("watch", _): candidates = ["initial", "old", "new", "prior"].filter { $0.hasPrefix(word) }
      case ("help", 1): candidates = (Command.names + ["keys"]).filter { $0.hasPrefix(word) }
      case ("save", 1), ("load", 1): candidates = fileNames(completing: word)
      default: candidates = []
      }
    }
    return (word, Array(Set(candidates)).sorted())
  }

  /// Every key path the editor can name, for completion: the attributes, the contents with
  /// their indexes and keys, and the collection operators over the contents.
  private var completableKeyPaths: [String] {
    var paths = Package.observableKeys.attributeKeyPaths()
    paths.append("contents")
    let contentKeys = PackageContent.observableKeys.keys.map(\.name)
    for index in package.contents.indices {
      paths += contentKeys.map { "contents.\(index).\($0)" }
    }
    for op in CollectionOperator.allCases {
      paths += op == .count ? ["contents.@count"] : contentKeys.map { "contents.\(op.rawValue).\($0)" }
    }
    return paths
  }

  /// The next segment of the key paths that `word` starts: `recip` → `recipient.`,
  /// `recipient.first` → `recipient.firstName`.
  private func keyPathSegments(completing word: String) -> [String] {
    let prefix = word.lastIndex(of: ".").map { String(word[...$0]) } ?? ""
    var candidates: [String] = []
    for path in completableKeyPaths where path.hasPrefix(word) {
      let rest = path.dropFirst(prefix.count)
      if let dot = rest.firstIndex(of: ".") {
        candidates.append(prefix + rest[...dot])
      } else {
        candidates.append(path)
      }
    }
    return candidates
  }

  /// Names in the directory `word` points into that start with its last component;
  /// directories end in `/`.
  private func fileNames(completing word: String) -> [String] {
    let prefix = word.lastIndex(of: "/").map { String(word[...$0]) } ?? ""
    let start = String(word.dropFirst(prefix.count))
    let directory = resolve(prefix.isEmpty ? "." : prefix)
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return [] }
    return names.filter { $0.hasPrefix(start) && (start.hasPrefix(".") || !$0.hasPrefix(".")) }.map { name in
      var isDirectory: ObjCBool = false
      let exists = FileManager.default.fileExists(atPath: directory + "/" + name, isDirectory: &isDirectory)
      return prefix + name + (exists && isDirectory.boolValue ? "/" : "")
    }
  }
}
