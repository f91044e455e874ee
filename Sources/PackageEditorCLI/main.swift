// package-editor: edits a package through its view model, one command per line.
// See EditorOptions.usage for the command line and HelpText for the commands.
import Foundation

let status = Editor.main(
  arguments: Array(CommandLine.arguments.dropFirst()),
  environment: ProcessInfo.processInfo.environment,
  inputIsTerminal: isatty(0) == 1)
exit(status)
