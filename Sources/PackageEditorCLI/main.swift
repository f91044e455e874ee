// package-editor: edits a package through its view model, one command per line.
// See EditorOptions.usage for the command line and HelpText for the commands.
import Foundation

// First, so that no file the editor opens takes the number of a closed standard descriptor.
let closedDescriptors = StandardDescriptors.reopenClosed()
// Passing the file size limit (ulimit -f) is then the error EFBIG, reported by the save that
// met it, rather than the end of the process half-way through a save.
signal(SIGXFSZ, SIG_IGN)
// A reader of standard output that went away (`package-editor | head -1`) is then the error
// EPIPE, which ends the session as the other endings do (unsaved changes saved, a message on
// standard error, status 1), rather than a silent end that loses them.
signal(SIGPIPE, SIG_IGN)
HangUp.install()

let status = Editor.main(
  arguments: Array(CommandLine.arguments.dropFirst()),
  environment: ProcessInfo.processInfo.environment,
  inputIsTerminal: isatty(0) == 1, outputIsTerminal: isatty(1) == 1,
  closedDescriptors: closedDescriptors)
exit(status)
