/// What a command's argument is, so that Tab can complete it.
enum ArgumentKind: Sendable, Equatable {
  /// Free text (a title, a value): not completed.
  case text
  /// A key path of the package, completed one segment at a time.
  case keyPath
  /// A watched key path, or `all`.
  case watchedKeyPath
  /// The index of a content line.
  case contentIndex
  /// A file name, relative to the session's directory.
  case file
  /// A command name, or `keys` (the topics of `help`).
  case helpTopic
  /// One of a fixed set of words.
  case choice([String])
}
