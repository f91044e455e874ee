/// How a command is named, documented and called: what `help`, completion and "did you mean"
/// know of it.
struct CommandConfiguration: Sendable {
  /// The name `help` lists it under.
  let name: String
  /// Other names that run the same command (`exit` for `quit`).
  var aliases: [String] = []
  /// The syntax, as `help` shows it: `get <keyPath>`.
  let usage: String
  /// One line on what it does.
  let summary: String
  /// More lines for `help <command>`, each at most 80 columns.
  var details: [String] = []
  /// How many arguments it takes.
  var arguments: ClosedRange<Int> = 0...0
  /// What each argument is, for completion; past the end of the list, the last kind repeats up
  /// to the most arguments the command takes.
  var argumentKinds: [ArgumentKind] = []

  /// Every name the command answers to.
  var names: [String] { [name] + aliases }

  /// The names `help` shows, those its usage spells out (`quit | exit | quit!`): what Tab
  /// offers. Other aliases (`exit!`, `?`) run the command but are not offered.
  var shownNames: [String] {
    let words = Set(usage.split { " |[]<>".contains($0) }.map(String.init))
    return names.filter(words.contains)
  }

  /// The kind of the argument at `position` (0 is the first argument), if there is one.
  func kind(at position: Int) -> ArgumentKind? {
    guard position < arguments.upperBound else { return nil }
    return position < argumentKinds.count ? argumentKinds[position] : argumentKinds.last
  }
}
