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
}
