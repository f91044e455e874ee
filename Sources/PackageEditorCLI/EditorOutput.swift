/// Where the editor's lines go. Standard output gets results, watch lines and summaries;
/// standard error gets `error: …` lines.
protocol EditorOutput: AnyObject {
  /// A result line.
  func line(_ text: String)
  /// A watch notification.
  func watch(_ text: String)
  /// A `summary: …` line.
  func summary(_ text: String)
  /// An error, printed as `error: <message>`.
  func error(_ message: String)
  /// An error of the input line at `location`, printed as `<location>: error: <message>`.
  func error(_ message: String, at location: String)
  /// A warning, printed as `warning: <message>`.
  func warning(_ message: String)
  /// Writes what is buffered.
  func flush()
  /// Why the results could not be written (its reader went away, the disk is full), if they
  /// could not: the session then ends.
  var failure: String? { get }
}

extension EditorOutput {
  /// Nothing is buffered.
  func flush() {}
  /// Nothing fails.
  var failure: String? { nil }
}
