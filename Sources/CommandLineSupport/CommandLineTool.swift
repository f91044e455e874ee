// What the three executables (package-editor, kvolite-stress, kvolite-benchmarks) answer alike:
// their version, `--version`'s line, and bad usage as one line and status 64, as the tools
// written with swift-argument-parser do.

/// The conventions the package's executables share: one version, one status for bad usage,
/// one form for each answer.
package enum CommandLineTool {
  /// KVOLite's version, which every executable prints for `--version`: the one place it is
  /// written (the CHANGELOG's latest release and the README's `from:` name it too, and a test
  /// checks that they agree).
  package static let version = "0.1.0"

  /// The exit status of a command line that cannot be understood (`EX_USAGE`).
  package static let usageStatus: Int32 = 64

  /// What `--version` prints: `package-editor 0.1.0`.
  package static func versionLine(of program: String) -> String {
    "\(program) \(version)"
  }
}

/// A command line that cannot be understood. The program prints ``line(for:)`` after
/// `error: ` on standard error, and exits with ``CommandLineTool/usageStatus``.
package struct UsageError: Error, Equatable, CustomStringConvertible {
  /// The mistake: `unknown option "--frob"`.
  package let description: String
  /// Whether ``description`` already says what to do (a "did you mean", where help is), so
  /// that no pointer to `--help` is added.
  package var namesTheFix = false

  /// The mistake `description`; `namesTheFix` if it says what to do.
  package init(description: String, namesTheFix: Bool = false) {
    self.description = description
    self.namesTheFix = namesTheFix
  }

  /// The one line `program` prints after `error: `: the mistake, and where the usage is
  /// (`unknown option "--frob"; kvolite-stress --help shows the usage`).
  package func line(for program: String) -> String {
    namesTheFix ? description : description + "; \(program) --help shows the usage"
  }
}
