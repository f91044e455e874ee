import Foundation
import KVOLite
import PackageModel

extension EditorSession {
  /// Tab completion for the text before the cursor: the word being typed and the candidates
  /// that may replace it (each starting with it), sorted.
  ///
  /// The first word completes to the command names and aliases `help` shows; an argument by
  /// the kind its command declares (``ArgumentKind``): key paths one segment at a time from the
  /// model's declared keys (`recip` → `recipient.`), contents and collection operators
  /// included; watched key paths; content indexes, noted with their lines' titles for a
  /// listing (`0  Books ×2`); file names (not those holding a control character, which a line
  /// cannot show); help topics; fixed words such as `watch`'s options. Nothing is completed
  /// inside quotes.
  func completions(for beforeCursor: String) -> LineEditor.Completions {
    guard beforeCursor.filter({ $0 == "\"" }).count % 2 == 0 else {
      return LineEditor.Completions(word: "", candidates: [])
    }
    let words = beforeCursor.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
    let endsWithSpace = beforeCursor.last == " " || beforeCursor.isEmpty
    let word = endsWithSpace ? "" : (words.last ?? "")
    let position = endsWithSpace ? words.count : words.count - 1
    let kind =
      position == 0
      ? nil : CommandTable.command(named: words[0])?.configuration.kind(at: position - 1)
    let candidates =
      position == 0 ? CommandTable.shownNames : kind.map { self.candidates($0, completing: word) }
    let matching = Array(Set((candidates ?? []).filter { $0.hasPrefix(word) })).sorted()
    var completions = LineEditor.Completions(word: word, candidates: matching)
    if kind == .contentIndex {
      // A listing shows each index with its line, as the summary names it.
      for candidate in matching {
        guard let index = Int(candidate), package.contents.indices.contains(index) else { continue }
        let content = package.contents[index]
        completions.notes[candidate] =
          content.quantity == 1 ? content.title : "\(content.title) ×\(content.quantity)"
      }
    }
    return completions
  }

  /// The candidates for an argument of `kind` (those not starting with `word` are dropped by
  /// the caller).
  private func candidates(_ kind: ArgumentKind, completing word: String) -> [String] {
    switch kind {
    case .text: return []
    case .keyPath: return keyPathSegments(completing: word)
    case .watchedKeyPath: return watches.map(\.keyPath) + ["all"]
    case .contentIndex: return package.contents.indices.map(String.init)
    case .file: return fileNames(completing: word)
    case .helpTopic: return CommandTable.commands.map { $0.configuration.name } + ["keys"]
    case .choice(let words): return words
    }
  }

  /// Every key path the editor can name, for completion: the attributes, the contents with
  /// their indexes and keys, and the collection operators over the contents.
  private var completableKeyPaths: [String] {
    var paths = Package.allObservableKeys.attributeKeyPaths()
    paths.append("contents")
    let contentKeys = PackageContent.allObservableKeys.keys.map(\.name)
    for index in package.contents.indices {
      paths += contentKeys.map { "contents.\(index).\($0)" }
    }
    for op in CollectionOperator.allCases {
      paths +=
        op == .count ? ["contents.@count"] : contentKeys.map { "contents.\(op.rawValue).\($0)" }
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
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else {
      return []
    }
    return names.filter {
      $0.hasPrefix(start) && (start.hasPrefix(".") || !$0.hasPrefix("."))
        && !OneLineOutput.hasControl($0)
    }.map { name in
      var isDirectory: ObjCBool = false
      let exists = FileManager.default.fileExists(
        atPath: directory + "/" + name, isDirectory: &isDirectory)
      return prefix + name + (exists && isDirectory.boolValue ? "/" : "")
    }
  }
}
