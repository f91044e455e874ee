#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Lines given up front: the `-e` commands and the lines of `-f` script files, in the order
/// they were given (a test's script, too).
///
/// Each `-e` command is a source of its own, `-e:1`, `-e:2`…, counted in the order given; a
/// script file is read as standard input is (see ``LineReader``), its lines named
/// `script.txt:12`.
final class ScriptSource: LineSource {
  /// A script file that cannot be read.
  struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  /// How a part's lines are named in ``location``.
  private enum Naming {
    /// Not at all (a test's script).
    case none
    /// `-e:N`, counting the `-e` commands.
    case command
    /// `file:N`, counting the file's lines.
    case file(String)
  }

  /// What is left to read.
  private var parts: [(naming: Naming, source: LineSource)]
  private var lineNumber = 0
  private var commandNumber = 0
  private(set) var location: String?

  /// `lines`, as one source named `name` (unnamed: errors name no location).
  init(_ lines: [String], name: String? = nil) {
    parts = [(name.map { .file($0) } ?? .none, LineList(lines))]
  }

  /// The `-e` commands and `-f` scripts of a command line. Every script file is opened now, so
  /// that one that cannot be read stops the run before anything ran.
  init(_ scripts: [EditorOptions.Script]) throws(Failure) {
    parts = []
    for script in scripts {
      switch script {
      case .command(let command):
        parts.append((.command, LineList([command])))
      case .file(let file):
        parts.append((.file(file), try ScriptSource.openScript(file, naming: file)))
      }
    }
  }

  /// A reader of the script file at `path`, named `name` (`name:12` in errors).
  /// - Throws: ``Failure`` if it cannot be opened, or is a directory (which would otherwise
  ///   read as an error of standard input's kind).
  static func openScript(_ path: String, naming name: String) throws(Failure) -> LineReader {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY)
    var info = stat()
    guard descriptor >= 0, fstat(descriptor, &info) == 0, info.st_mode & S_IFMT != S_IFDIR else {
      let reason =
        descriptor >= 0 ? "it is a directory" : String(cString: strerror(errno)).lowercased()
      if descriptor >= 0 { close(descriptor) }
      throw Failure(description: "cannot read the script \"\(name)\": \(reason)")
    }
    return LineReader(
      descriptor: descriptor, name: name, closesDescriptor: true,
      describedAs: "the script \"\(name)\"")
  }

  func next() -> LineReader.Line? {
    while let part = parts.first {
      if let line = part.source.next() {
        switch part.naming {
        case .none: location = nil
        case .command:
          commandNumber += 1
          location = "-e:\(commandNumber)"
        case .file(let name):
          lineNumber += 1
          location = "\(name):\(lineNumber)"
        }
        return line
      }
      parts.removeFirst()
      lineNumber = 0
    }
    return nil
  }
}

/// A fixed list of lines.
private final class LineList: LineSource {
  private var lines: IndexingIterator<[String]>
  init(_ lines: [String]) { self.lines = lines.makeIterator() }
  func next() -> LineReader.Line? { lines.next().map { .text($0) } }
  var location: String? { nil }
}
