/// `summary`: prints the view model's summary line.
struct SummaryCommand: ArgumentlessCommand {
  static let configuration = CommandConfiguration(
    name: "summary", usage: "summary", summary: "print the summary line")

  func run(in session: EditorSession) {
    session.output.summary("summary: " + session.viewModel.summary)
  }
}
