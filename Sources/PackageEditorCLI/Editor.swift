import CommandLineSupport
import Foundation
import PackageModel

/// The editor's run: start-up, the command loop, and the exit status.
///
/// Exit statuses: 0 on success; 1 if a command failed in batch mode (the first failure ends the
/// run unless `--keep-going`), input or a script could not be read, the file given could not
/// be loaded, or standard output could not be written (the session ends there); 64 for bad
/// usage; 129 after a hang-up and 143 after `SIGTERM`. A session that ends before its input
/// does (a hang-up, `SIGTERM`, a read error at the prompt, standard output lost) saves unsaved
/// changes to a recovery file, named on standard error.
enum Editor {
  static let usageStatus = CommandLineTool.usageStatus

  /// Runs the editor as `package-editor` with `arguments`. Standard output is a terminal if
  /// `outputIsTerminal`; colours need that, and `TERM` other than `dumb`. The standard
  /// descriptors in `closedDescriptors` were closed at start (see ``StandardDescriptors``):
  /// reading or writing them is an error.
  static func main(
    arguments: [String], environment: [String: String], inputIsTerminal: Bool,
    outputIsTerminal: Bool = false, closedDescriptors: Set<Int32> = []
  ) -> Int32 {
    let options: EditorOptions
    do {
      options = try EditorOptions.parse(arguments)
      try checkFileIsNotACommand(options.file)
    } catch {
      // One line that names the mistake and where the usage is, as swift-argument-parser's
      // tools do (the whole usage buried it). It quotes the arguments: escaped, so that none
      // can forge a line.
      StandardOutput.write(
        "error: \(OneLineOutput.escaped(error.line(for: "package-editor")))\n", to: 2)
      return usageStatus
    }
    if options.showHelp || options.showVersion {
      let text =
        options.showHelp ? EditorOptions.usage : CommandLineTool.versionLine(of: "package-editor")
      return StandardOutput.write(text + "\n", to: 1) == nil ? 0 : 1
    }
    let interactive =
      options.mode == .interactive
      || (options.mode == .automatic && inputIsTerminal && options.scripts.isEmpty)
    let output = StandardOutput(
      colors: interactive && outputIsTerminal && environment["TERM"] != "dumb"
        && !options.noColor && environment["NO_COLOR"] == nil,
      closed: closedDescriptors.contains(1))
    let source: LineSource
    let prompt: (String) -> Void
    if !options.scripts.isEmpty {
      do {
        source = try ScriptSource(options.scripts)
      } catch {
        output.error(OneLineOutput.escaped(error.description))
        return 1
      }
      prompt = { output.prompt($0) }
    } else if interactive, inputIsTerminal, outputIsTerminal, environment["TERM"] != "dumb",
      Terminal.prepare()
    {
      // A terminal that can edit: the line editor draws its own prompt.
      let history = History(file: History.file(in: environment)) { output.warning($0) }
      source = TerminalLineSource(history: history) { output.warning($0) }
      prompt = { _ in output.flush() }
    } else {
      source = LineReader(
        name: interactive ? nil : "<stdin>", isClosed: closedDescriptors.contains(0))
      prompt = { output.prompt($0) }
    }
    return run(
      options: options, interactive: interactive, source: source, output: output,
      recoveryDirectory: History.stateDirectory(in: environment), environment: environment,
      prompt: prompt)
  }

  /// Refuses a FILE that does not exist and is named like a command (`package-editor help`):
  /// the user meant the command, not a new file by that name.
  private static func checkFileIsNotACommand(_ file: String?) throws(EditorOptions.UsageError) {
    var info = stat()
    guard let file, CommandTable.command(named: file) != nil || file == "version",
      stat(file, &info) != 0, errno == ENOENT  // Nothing there, or a dangling link.
    else { return }
    throw EditorOptions.UsageError(
      description:
        "no such file \"\(file)\": for help, use --help; to create a file by that name, give it as ./\(file)",
      namesTheFix: true)
  }

  /// The command loop, on any line source and output (tests use scripts and captures).
  ///
  /// Relative file names (FILE, `save`, `load`) are resolved against `directory`, or the
  /// current directory if it is `nil`. After a hang-up, or when `output` fails (its
  /// ``EditorOutput/failure``), unsaved changes are saved in `recoveryDirectory`; a failure of
  /// `output` is reported on standard error and makes the status 1.
  static func run(
    options: EditorOptions, interactive: Bool, source: LineSource, output: EditorOutput,
    directory: String? = nil, recoveryDirectory: String? = nil,
    environment: [String: String] = [:],
    prompt: ((String) -> Void)? = nil
  ) -> Int32 {
    let output = OneLineOutput.wrapping(output)
    guard let session = makeSession(options.file, output: output, directory: directory) else {
      return finish(1, output: output)
    }
    session.confirmsDiscarding = interactive
    (source as? TerminalLineSource)?.attach(session)
    let input = SourceStack(source)
    session.input = input
    if interactive {
      output.line(
        "package-editor: \(session.editingDescription); type help for commands, quit to leave")
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
      if HangUp.happened {
        let status = hangUp(session, recoveryDirectory: recoveryDirectory, environment: environment)
        return finish(status, output: output)
      }
      if interactive, !input.isReadingScript {
        (source as? TerminalLineSource)?.prompt = session.prompt
        prompt?(session.prompt)
      }
      if let failure = output.failure {
        // Nobody reads the results any more (`| head -1` is done, the disk is full): the
        // session ends here, keeping what it has not saved.
        output.error("cannot write standard output: \(failure)")
        if session.hasUnsavedChanges {
          recover(
            session, in: recoveryDirectory, because: "standard output failed",
            environment: environment)
        }
        return 1
      }
      guard let line = input.next() else {
        // End of input (Ctrl-D) is a quit; a terminal can be read again after it.
        if mayLeave(force: false) { break }
        continue
      }
      // A script's lines are named in errors, at the prompt too.
      let inScript = input.isReadingScript
      session.location = interactive && !inScript ? nil : input.location
      let result: (succeeded: Bool, quit: Bool, force: Bool)
      switch line {
      case .text(let text):
        result = session.runCommands(text, stopAtError: !interactive && !options.keepGoing)
      case .invalid(let message):
        session.reject(message)
        result = (false, false, false)
      case .failed(let message) where inScript:
        session.reject(message)
        result = (false, false, false)
      case .failed(let message):
        // Input cannot go on: a script stopped half-way must not look like a success.
        session.reject(message)
        if interactive, session.hasUnsavedChanges {
          recover(
            session, in: recoveryDirectory, because: "input ended in an error",
            environment: environment)
        }
        return finish(1, output: output)
      case .hangUp:
        // It came while the prompt waited for a line: what the editor says starts a line.
        if interactive { output.line("") }
        let status = hangUp(session, recoveryDirectory: recoveryDirectory, environment: environment)
        return finish(status, output: output)
      }
      if result.quit, mayLeave(force: result.force) { break }
      if !result.succeeded, interactive, inScript { input.abandonScripts() }
      if !result.succeeded, !interactive {
        failed = true
        if !options.keepGoing { break }
      }
    }
    return finish(failed ? 1 : 0, output: output)
  }

  /// Flushes `output` at the end of a run with `status`, and reports a failure to write it:
  /// the status is then at least 1.
  private static func finish(_ status: Int32, output: EditorOutput) -> Int32 {
    output.flush()
    guard let failure = output.failure else { return status }
    output.error("cannot write standard output: \(failure)")
    return status == 0 ? 1 : status
  }

  /// Ends the run after a hang-up or `SIGTERM`, saving unsaved changes first; the status is
  /// the shell's for the signal (128 + its number).
  private static func hangUp(
    _ session: EditorSession, recoveryDirectory: String?, environment: [String: String]
  ) -> Int32 {
    let signal = HangUp.received.load(ordering: .sequentiallyConsistent)
    if session.hasUnsavedChanges {
      recover(
        session, in: recoveryDirectory, because: signal == SIGTERM ? "terminated" : "hang-up",
        environment: environment)
    }
    return 128 + (signal == 0 ? SIGHUP : signal)
  }

  /// Saves the package, with its unsaved changes, to a new private file in `directory` (see
  /// ``StateDirectory``; a directory that is refused is replaced by a new private one), and
  /// says on standard error where, and how to recover them (or that it could not).
  private static func recover(
    _ session: EditorSession, in directory: String?, because: String,
    environment: [String: String]
  ) {
    let stamp = "\(Int(Date().timeIntervalSince1970))-\(getpid())"
    var opened: (path: String, descriptor: Int32)?
    var refusal: String?
    if let directory {
      do {
        opened = (directory, try StateDirectory.openChecked(directory))
      } catch {
        refusal = error.description
      }
    }
    do {
      if opened == nil { opened = try StateDirectory.makePrivate(in: environment) }
    } catch {
      session.output.warning("\(because): the unsaved changes are lost: \(error)")
      return
    }
    guard let (path, descriptor) = opened else { return }
    defer { close(descriptor) }
    if let refusal {
      session.output.warning("\(because): not using the state directory: \(refusal)")
    }
    do {
      let (file, name) = try StateDirectory.createFile(
        in: descriptor, name: "recovered-\(stamp)", suffix: ".json")
      let bytes = PackageFile.text(of: session.package, keeping: session.snapshot)
      let written = bytes.withUnsafeBytes { StandardOutput.write($0, to: file) }
      let synced = fsync(file) == 0
      close(file)
      guard written == nil, synced else {
        unlinkat(descriptor, name, 0)
        throw StateDirectory.Failure(
          description: "cannot write \(name): \(String(cString: strerror(written ?? errno)))")
      }
      let recovered = path + "/" + name
      let target = session.file ?? "FILE"
      session.output.warning(
        "\(because): the unsaved changes are saved in \(recovered); to recover them, run package-editor \(recovered), then saveas \(target)"
      )
    } catch {
      session.output.warning("\(because): the unsaved changes are lost: \(error)")
    }
  }

  /// The session on FILE (loaded if it exists, empty otherwise) or on the sample package.
  private static func makeSession(_ file: String?, output: EditorOutput, directory: String?)
    -> EditorSession?
  {
    guard let file else {
      return EditorSession(package: .sample(), file: nil, output: output, directory: directory)
    }
    let package = Package()
    var snapshot: PackageFileSnapshot
    do {
      let loaded = try PackageFile.loadIfPresent(
        EditorSession.resolve(file, in: directory), naming: file)
      snapshot = loaded.snapshot
      if let document = loaded.document { package.apply(document) }
    } catch {
      output.error("cannot start: \(error)")
      return nil
    }
    snapshot.adoptContents(of: package)
    return EditorSession(
      package: package, file: file, snapshot: snapshot, output: output, directory: directory)
  }
}
