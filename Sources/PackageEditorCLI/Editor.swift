import Foundation
import PackageModel

/// The editor's run: start-up, the command loop, and the exit status.
///
/// Exit statuses: 0 on success; 1 if a command failed in batch mode (the first failure ends the
/// run unless `--keep-going`), standard input could not be read, or the file given could not be
/// loaded; 64 for bad usage.
enum Editor {
  static let usageStatus: Int32 = 64

  /// Runs the editor as `package-editor` with `arguments`.
  static func main(
    arguments: [String], environment: [String: String], inputIsTerminal: Bool
  ) -> Int32 {
    let options: EditorOptions
    do {
      options = try EditorOptions.parse(arguments)
    } catch {
      StandardOutput.write("error: \(error)\n\(EditorOptions.usage)\n", to: 2)
      return usageStatus
    }
    if options.showHelp {
      StandardOutput.write(EditorOptions.usage + "\n", to: 1)
      return 0
    }
    let interactive =
      options.mode == .interactive
      || (options.mode == .automatic && inputIsTerminal && options.commands.isEmpty)
    let output = StandardOutput(
      colors: interactive && !options.noColor && environment["NO_COLOR"] == nil)
    let source: LineSource
    let prompt: (String) -> Void
    if !options.commands.isEmpty {
      source = ScriptSource(options.commands)
      prompt = { output.prompt($0) }
    } else if interactive, inputIsTerminal, isatty(1) == 1, environment["TERM"] != "dumb",
      Terminal.prepare()
    {
      // A terminal that can edit: the line editor draws its own prompt.
      let history = History(file: History.file(in: environment)) { output.warning($0) }
      source = TerminalLineSource(prompt: "package> ", history: history) { output.warning($0) }
      prompt = { _ in output.flush() }
    } else {
      source = LineReader()
      prompt = { output.prompt($0) }
    }
    let status = run(
      options: options, interactive: interactive, source: source, output: output, prompt: prompt)
    output.flush()
    return status
  }

  /// The command loop, on any line source and output (tests use scripts and captures).
  ///
  /// Relative file names (FILE, `save`, `load`) are resolved against `directory`, or the
  /// current directory if it is `nil`.
  static func run(
    options: EditorOptions, interactive: Bool, source: LineSource, output: EditorOutput,
    directory: String? = nil, prompt: ((String) -> Void)? = nil
  ) -> Int32 {
    let output = OneLineOutput.wrapping(output)
    guard let session = makeSession(options.file, output: output, directory: directory) else {
      return 1
    }
    (source as? TerminalLineSource)?.attach(session)
    if interactive {
      let subject = options.file.map { "editing \($0)" } ?? "editing the built-in sample package"
      output.line("package-editor: \(subject); type help for commands, quit to leave")
      output.summary("summary: " + session.viewModel.summary)
    }
    var failed = false
    // The history version at which the user was told of unsaved changes: asking to leave
    // again, with nothing changed since, leaves.
    var warnedAt: Int?
    func mayLeave(force: Bool) -> Bool {
      guard interactive, !force, session.hasUnsavedChanges, warnedAt != session.history.version
      else {
        return true
      }
      warnedAt = session.history.version
      output.warning(
        "there are unsaved changes: save them with save [file], or quit again (or quit!) to discard them"
      )
      return false
    }
    while true {
      if interactive { prompt?("package> ") }
      guard let line = source.next() else {
        // End of input (Ctrl-D) is a quit; a terminal can be read again after it.
        if mayLeave(force: false) { break }
        continue
      }
      let result: (succeeded: Bool, quit: Bool, force: Bool)
      switch line {
      case .text(let text): result = session.run(text)
      case .invalid(let message):
        session.reject(message)
        result = (false, false, false)
      case .failed(let message):
        // Input cannot go on: a script stopped half-way must not look like a success.
        session.reject(message)
        return 1
      }
      if result.quit, mayLeave(force: result.force) { break }
      if !result.succeeded, !interactive {
        failed = true
        if !options.keepGoing { break }
      }
    }
    return failed ? 1 : 0
  }

  /// The session on FILE (loaded if it exists, empty otherwise) or on the sample package.
  private static func makeSession(_ file: String?, output: EditorOutput, directory: String?)
    -> EditorSession?
  {
    guard let file else {
      return EditorSession(package: .sample(), file: nil, output: output, directory: directory)
    }
    let package = Package()
    do {
      if let document = try PackageFile.readIfPresent(
        EditorSession.resolve(file, in: directory), naming: file)
      {
        package.apply(document)
      }
    } catch {
      output.error("cannot start: \(error)")
      return nil
    }
    return EditorSession(package: package, file: file, output: output, directory: directory)
  }
}
