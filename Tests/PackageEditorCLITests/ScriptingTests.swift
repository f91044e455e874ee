import Foundation
import KVOLiteTestSupport
import PackageModel
import Testing

@testable import PackageEditorCLI

/// Scripts and pipes behave as people expect from shells and `sqlite3`: comments, script
/// files, errors that name their line, quoting, colours only on a terminal.
@Suite("Scripts and pipes", .serialized)
struct ScriptingTests {
  @Test("colours only when standard output is a terminal and TERM is not dumb")
  func coloursOnlyOnATerminal() throws {
    let directory = TemporaryDirectory()
    // --interactive through a pipe (`| tee log`): plain text.
    let piped = try EditorProcess.run(
      ["--interactive"], in: directory.path, input: "get nope\nsummary\n",
      environment: ["TERM": "xterm"])
    #expect(!piped.stdout.contains("\u{1B}["))
    #expect(!piped.stderr.contains("\u{1B}["))
    #expect(piped.stderr == "error: get nope: Package has no key \"nope\"\n")
    // On a terminal with TERM=dumb: no colours either.
    let terminal = try PseudoTerminal(
      arguments: [],
      environment: ["TERM": "dumb", "HOME": directory.path, "PACKAGE_EDITOR_HISTORY": "off"])
    #expect(terminal.waitFor("package> "))
    terminal.type("get nope\nquit!\n")
    #expect(terminal.exitStatus() == 0)
    #expect(terminal.screen.contains("error: get nope"))
    #expect(!terminal.screen.contains("\u{1B}[3"))
  }

  @Test("# starts a comment line, in scripts and in -e; blank lines are nothing")
  func comments() throws {
    let run = transcript(
      "# a comment\n\n   # indented\n\t\nget recipient.firstName # not a comment here")
    #expect(run.stderr == "error: get: wrong arguments; usage: get <keyPath>\n")
    let clean = transcript("# set up\n\nget recipient.firstName\n  # done")
    #expect(clean.stdout == "Ann\n" && clean.stderr.isEmpty && clean.status == 0)
    #expect(try EditorOptions.parse(["-e", "# nothing"]).scripts == [.command("# nothing")])
  }

  @Test(
    "--script FILE and -f FILE run a script; errors name the file and line; -e and stdin are named too"
  )
  func scriptFiles() throws {
    let directory = TemporaryDirectory()
    try Data(
      "# a script\nset recipient.firstName Bea\n\nget recipient.frst\nget recipient.firstName\n"
        .utf8
    )
    .write(to: URL(fileURLWithPath: directory.file("script.txt")))
    let run = try EditorProcess.run(["--script", "script.txt"], in: directory.path)
    #expect(run.status == 1)
    #expect(
      run.stdout
        == "summary: Bea Smith, 1 Main St · from Bob Jones · 2 items (3 pcs, 1.5 kg): Books ×2, Mug\n"
    )
    #expect(
      run.stderr
        == "script.txt:4: error: get recipient.frst: Person has no key \"frst\" (after \"recipient\"); did you mean \"firstName\"?\n"
    )
    let mixed = try EditorProcess.run(
      ["-e", "get recipient.firstName", "-f", "script.txt", "-e", "get nope", "--keep-going"],
      in: directory.path)
    #expect(mixed.status == 1)
    #expect(
      mixed.stderr == """
        script.txt:4: error: get recipient.frst: Person has no key "frst" (after "recipient"); did you mean "firstName"?
        -e:2: error: get nope: Package has no key "nope"

        """)
    #expect(mixed.stdout.hasPrefix("Ann\n"))
    let piped = try EditorProcess.run(["--batch"], in: directory.path, input: "show\nget nope\n")
    #expect(piped.stderr == "<stdin>:2: error: get nope: Package has no key \"nope\"\n")
    let missing = try EditorProcess.run(["-f", "nothing.txt"], in: directory.path)
    #expect(missing.status == 1)
    #expect(
      missing.stderr == "error: cannot read the script \"nothing.txt\": no such file or directory\n"
    )
    #expect(throws: EditorOptions.UsageError(description: "-f needs a SCRIPT file")) {
      try EditorOptions.parse(["-f"])
    }
  }

  @Test("a set value with spaces must be quoted, and single quotes work as in a shell")
  func quoting() throws {
    let run = transcript(
      """
      set recipient.firstName Ann Marie
      set recipient.firstName 'Ann Marie'
      set recipient.lastName 'O"Brien \\n'
      get recipient.lastName
      set recipient.firstName 'unbalanced
      """, options: EditorOptions(keepGoing: true))
    #expect(
      run.stderr == """
        error: set: a value with spaces must be quoted: set recipient.firstName "Ann Marie"
        error: unbalanced quote: a quoted value needs its closing quote

        """)
    #expect(
      run.stdout == """
        summary: Ann Marie Smith, 1 Main St · from Bob Jones · 2 items (3 pcs, 1.5 kg): Books ×2, Mug
        summary: Ann Marie O"Brien \\n, 1 Main St · from Bob Jones · 2 items (3 pcs, 1.5 kg): Books ×2, Mug
        O"Brien \\n

        """)
    #expect(try Tokenizer.words(#"a 'b c'd "e f" 'g\h'"#) == ["a", "b cd", "e f", #"g\h"#])
  }

  @Test("watch KEY initial adds the value now to the default old and new")
  func watchInitial() {
    let run = transcript("watch recipient.firstName initial\nset recipient.firstName Bea")
    #expect(
      run.stdout == """
        recipient.firstName: setting -> "Ann"
        recipient.firstName: setting "Ann" -> "Bea"
        summary: Bea Smith, 1 Main St · from Bob Jones · 2 items (3 pcs, 1.5 kg): Books ×2, Mug

        """)
  }

  @Test("--version prints the version; a FILE named like a command is not silently a new file")
  func versionAndCommandNamedFile() throws {
    let directory = TemporaryDirectory()
    let version = try EditorProcess.run(["--version"], in: directory.path)
    #expect(
      version == EditorProcess.Result(stdout: "package-editor 0.1.0\n", stderr: "", status: 0))
    let help = try EditorProcess.run(["help"], in: directory.path)
    #expect(help.status == 64)
    #expect(
      help.stderr
        == #"error: no such file "help": for help, use --help; to create a file by that name, give it as ./help"#
        + "\n")
    // An existing file by that name is the file; ./help names a new one.
    let created = try EditorProcess.run(["./help", "-e", "save"], in: directory.path)
    #expect(created.status == 0 && created.stdout == "saved ./help\n")
    let existing = try EditorProcess.run(
      ["help", "-e", "get recipient.firstName"], in: directory.path)
    #expect(existing.status == 0 && existing.stdout == "\n")
  }

  @Test("Ctrl-L clears the screen and redraws the line; Ctrl-G in a search restores the line")
  func controlKeys() throws {
    let history = History(file: nil)
    history.add("set recipient.firstName Bea")
    var editor = LineEditor(history: history)
    for character in "get re" { _ = editor.handle(.character(character)) }
    #expect(editor.handle(.control("r")) == .editing)
    for character in "set" { _ = editor.handle(.character(character)) }
    #expect(editor.buffer.text == "set recipient.firstName Bea")
    #expect(editor.handle(.control("g")) == .editing)
    #expect(editor.buffer.text == "get re")
    #expect(editor.prompt("package> ") == "package> ")
    #expect(editor.handle(.control("l")) == .clearScreen)
    #expect(editor.buffer.text == "get re")

    let directory = TemporaryDirectory()
    let terminal = try PseudoTerminal(
      arguments: [],
      environment: ["TERM": "xterm", "HOME": directory.path, "PACKAGE_EDITOR_HISTORY": "off"])
    #expect(terminal.waitFor("package> "))
    let mark = terminal.mark
    terminal.type("get\u{C}")
    #expect(terminal.waitFor("\u{1B}[H\u{1B}[2J\rpackage> get\u{1B}[J", after: mark))
    terminal.type("\u{15}quit!\r")
    #expect(terminal.exitStatus() == 0)
  }

  @Test("a; b runs two commands, as two lines; a ; in quotes is text; a; b stops at a's error")
  func semicolons() {
    let run = transcript(
      "set recipient.firstName \"A;B\"; get recipient.firstName;; get recipient.lastName;\n"
        + "get nope; get recipient.firstName\nget recipient.firstName")
    #expect(
      run.stdout == """
        summary: A;B Smith, 1 Main St · from Bob Jones · 2 items (3 pcs, 1.5 kg): Books ×2, Mug
        A;B
        Smith

        """)
    #expect(run.stderr == "error: get nope: Package has no key \"nope\"\n")
    #expect(run.status == 1)
    let going = transcript(
      "get nope; get recipient.firstName", options: EditorOptions(keepGoing: true))
    #expect(going.stdout == "Ann\n" && going.status == 1)
    #expect(
      transcript("set recipient.lastName 'x;y'; get recipient.lastName").stdout.hasSuffix("x;y\n"))
  }

  @Test(
    "source FILE runs a script from the prompt: its errors name file and line, it stops at the first, it nests to a limit"
  )
  func sourceScripts() throws {
    let directory = TemporaryDirectory()
    try "set recipient.firstName Bea\nsource inner.txt\nget recipient.lastName\n".write(
      toFile: directory.file("outer.txt"), atomically: true, encoding: .utf8)
    try "# inner\nset recipient.lastName Ray\nget nope\nset recipient.lastName Never\n".write(
      toFile: directory.file("inner.txt"), atomically: true, encoding: .utf8)
    try "source self.txt\n".write(
      toFile: directory.file("self.txt"), atomically: true, encoding: .utf8)
    let run = transcript(
      "source outer.txt\nget recipient.fullName\nsource missing.txt\nsource .\nsource self.txt",
      interactive: true, directory: directory)
    let lines = run.stdout.split(separator: "\n").dropFirst(2).joined(separator: "\n")
    #expect(
      lines == """
        summary: Bea Smith, 1 Main St · from Bob Jones · 2 items (3 pcs, 1.5 kg): Books ×2, Mug
        summary: Bea Ray, 1 Main St · from Bob Jones · 2 items (3 pcs, 1.5 kg): Books ×2, Mug
        Bea Ray
        """)
    #expect(
      run.stderr == """
        inner.txt:3: error: get nope: Package has no key "nope"
        error: source: cannot read the script "missing.txt": no such file or directory
        error: source: cannot read the script ".": it is a directory
        self.txt:1: error: source self.txt: scripts nest more than 16 deep
        warning: there are unsaved changes: save them with save [file], or quit again (or quit!) to discard them

        """)
  }

  @Test("-f DIRECTORY names the script, not standard input")
  func scriptDirectory() throws {
    let directory = TemporaryDirectory()
    let run = try EditorProcess.run(["-f", "."], in: directory.path)
    #expect(run.status == 1)
    #expect(run.stderr == "error: cannot read the script \".\": it is a directory\n")
  }
}
