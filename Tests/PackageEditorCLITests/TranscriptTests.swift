import Foundation
import KVOLiteTestSupport
import Testing

@testable import PackageEditorCLI

@Suite("Transcripts")
struct TranscriptTests {
  @Test("set, get, add, insert, remove and their summaries")
  func editing() {
    let run = transcript(
      """
      get recipient.firstName
      set recipient.firstName "Ann Marie"
      set recipient.postalAddress.city Ogdenville
      get contents.@count
      add Lamp 1 2.5
      insert 0 Pen 3
      get contents.0.title
      get contents.@sum.quantity
      remove 1
      get recipient.fullName
      """)
    #expect(
      run.stdout == """
        Ann
        summary: Ann Marie Smith, 1 Main St · from Bob Jones · 2 items (3 pcs, 1.5 kg): Books ×2, Mug
        recipient.postalAddress.city = "Ogdenville"
        2
        summary: Ann Marie Smith, 1 Main St · from Bob Jones · 3 items (4 pcs, 4 kg): Books ×2, Mug, Lamp
        summary: Ann Marie Smith, 1 Main St · from Bob Jones · 4 items (7 pcs, 4 kg): Pen ×3, Books ×2, Mug, Lamp
        Pen
        7
        summary: Ann Marie Smith, 1 Main St · from Bob Jones · 3 items (5 pcs, 3 kg): Pen ×3, Mug, Lamp
        Ann Marie Smith

        """)
    #expect(run.stderr == "")
    #expect(run.status == 0)
  }

  @Test("watch with each option, unwatch, watches")
  func watching() {
    let run = transcript(
      """
      watch recipient.firstName
      watch recipient.lastName initial new
      watch recipient.postalAddress.street prior old
      watch contents old new
      watch contents.@count new
      watches
      set recipient.firstName Bea
      set recipient.lastName Ray
      set recipient.postalAddress.street "2 Side St"
      add Lamp
      remove 0
      unwatch contents
      unwatch all
      watches
      set recipient.firstName Cy
      """)
    #expect(
      run.stdout == """
        recipient.lastName: setting -> "Smith"
        recipient.firstName [old, new]
        recipient.lastName [initial, new]
        recipient.postalAddress.street [old, prior]
        contents [old, new]
        contents.@count [new]
        recipient.firstName: setting "Ann" -> "Bea"
        summary: Bea Smith, 1 Main St · from Bob Jones · 2 items (3 pcs, 1.5 kg): Books ×2, Mug
        recipient.lastName: setting -> "Ray"
        summary: Bea Ray, 1 Main St · from Bob Jones · 2 items (3 pcs, 1.5 kg): Books ×2, Mug
        recipient.postalAddress.street: prior setting "1 Main St"
        recipient.postalAddress.street: setting "1 Main St" ->
        summary: Bea Ray, 2 Side St · from Bob Jones · 2 items (3 pcs, 1.5 kg): Books ×2, Mug
        contents: insertion [2] new [Lamp ×1]
        contents.@count: setting -> 3
        summary: Bea Ray, 2 Side St · from Bob Jones · 3 items (4 pcs, 1.5 kg): Books ×2, Mug, Lamp
        contents: removal [0] old [Books ×2]
        contents.@count: setting -> 2
        summary: Bea Ray, 2 Side St · from Bob Jones · 2 items (2 pcs, 0.5 kg): Mug, Lamp
        no watches
        summary: Cy Ray, 2 Side St · from Bob Jones · 2 items (2 pcs, 0.5 kg): Mug, Lamp

        """)
    #expect(run.stderr == "")
  }

  @Test("undo and redo step through every command that changed the package")
  func undoRedo() {
    let run = transcript(
      """
      set recipient.firstName Bea
      add Lamp
      new
      undo
      undo
      undo
      undo
      redo
      get recipient.firstName
      """, options: EditorOptions(keepGoing: true))
    #expect(
      run.stdout == """
        summary: Bea Smith, 1 Main St · from Bob Jones · 2 items (3 pcs, 1.5 kg): Books ×2, Mug
        summary: Bea Smith, 1 Main St · from Bob Jones · 3 items (4 pcs, 1.5 kg): Books ×2, Mug, Lamp
        summary: (no name) · from (no name) · no items
        summary: Bea Smith, 1 Main St · from Bob Jones · 3 items (4 pcs, 1.5 kg): Books ×2, Mug, Lamp
        summary: Bea Smith, 1 Main St · from Bob Jones · 2 items (3 pcs, 1.5 kg): Books ×2, Mug
        summary: Ann Smith, 1 Main St · from Bob Jones · 2 items (3 pcs, 1.5 kg): Books ×2, Mug
        summary: Bea Smith, 1 Main St · from Bob Jones · 2 items (3 pcs, 1.5 kg): Books ×2, Mug
        Bea

        """)
    #expect(run.stderr == "error: undo: nothing to undo\n")
    #expect(run.status == 1)
  }

  @Test(
    "errors name the command, the key path and what was expected; a failed command changes nothing")
  func errors() {
    let run = transcript(
      """
      set recipient.frstName Bea
      set contents.0.quantity 0
      set recipient.postalAddress x
      get contents.9.title
      get contents.title
      add "" 1
      add Lamp 0
      insert 5 Pen
      remove 2
      set recipient.firstName "unbalanced
      sett x
      unwatch nothing
      watch nope
      save
      redo
      help frob
      show extra
      get recip
      get recipient.frst
      summ
      summary
      """, options: EditorOptions(keepGoing: true))
    #expect(
      run.stderr == """
        error: set recipient.frstName: Person has no key "frstName" (after "recipient"); did you mean "firstName"?
        error: set contents.0.quantity: invalid value for "contents.0.quantity": a content's quantity must be at least 1, not 0
        error: set recipient.postalAddress: "recipient.postalAddress" holds PostalAddress, which cannot be set from text
        error: get contents.9.title: index 9 is out of range for "contents.9" (2 elements)
        error: get contents.title: "contents" of Package is a to-many relationship; continue with an index (contents.0) or a collection operator (contents.@count)
        error: add: a content's title must not be empty
        error: add: a content's quantity must be at least 1, not 0
        error: insert: there is no content at index 5 (the package has 2)
        error: remove: there is no content at index 2 (the package has 2)
        error: unbalanced quote: a quoted value needs its closing quote
        error: unknown command "sett"; did you mean "set"? (type help for the list)
        error: unwatch nothing: not watched (see watches)
        error: watch nope: Package has no key "nope"
        error: save: no file to save to; give one: save <file>
        error: redo: nothing to redo
        error: help: no command "frob"
        error: show: wrong arguments; usage: show
        error: get recip: Package has no key "recip"; did you mean "recipient"?
        error: get recipient.frst: Person has no key "frst" (after "recipient"); did you mean "firstName"?
        error: unknown command "summ"; did you mean "summary"? (type help for the list)

        """)
    #expect(
      run.stdout
        == "summary: Ann Smith, 1 Main St · from Bob Jones · 2 items (3 pcs, 1.5 kg): Books ×2, Mug\n"
    )
    #expect(run.status == 1)
  }

  @Test(
    "a content's field is edited by replacing the line: one replacement, one undo step; get totalWeight is the summary's weight"
  )
  func editingContents() {
    let run = transcript(
      """
      watch contents
      set contents.1.quantity 5
      set contents.1.title "Tea cup"
      set contents.0.weight 0.25
      get totalWeight
      get contents.@sum.weight
      undo
      undo
      get contents.1
      redo
      set contents.2.title x
      set contents.1.weight -1
      set contents.1.colour red
      """, options: EditorOptions(keepGoing: true))
    #expect(
      run.stdout == """
        contents: replacement [1] old [Mug ×1] new [Mug ×5]
        summary: Ann Smith, 1 Main St · from Bob Jones · 2 items (7 pcs, 3.5 kg): Books ×2, Mug ×5
        contents: replacement [1] old [Mug ×5] new [Tea cup ×5]
        summary: Ann Smith, 1 Main St · from Bob Jones · 2 items (7 pcs, 3.5 kg): Books ×2, Tea cup ×5
        contents: replacement [0] old [Books ×2] new [Books ×2]
        summary: Ann Smith, 1 Main St · from Bob Jones · 2 items (7 pcs, 3 kg): Books ×2, Tea cup ×5
        3
        0.75
        contents: replacement [0] old [Books ×2] new [Books ×2]
        summary: Ann Smith, 1 Main St · from Bob Jones · 2 items (7 pcs, 3.5 kg): Books ×2, Tea cup ×5
        contents: replacement [1] old [Tea cup ×5] new [Mug ×5]
        summary: Ann Smith, 1 Main St · from Bob Jones · 2 items (7 pcs, 3.5 kg): Books ×2, Mug ×5
        Mug ×5
        contents: replacement [1] old [Mug ×5] new [Tea cup ×5]
        summary: Ann Smith, 1 Main St · from Bob Jones · 2 items (7 pcs, 3.5 kg): Books ×2, Tea cup ×5

        """)
    #expect(
      run.stderr == """
        error: set contents.2.title: index 2 is out of range for "contents.2" (2 elements)
        error: set contents.1.weight: invalid value for "contents.1.weight": a content's weight must be a number of kilograms from 0 to 1000000, not -1.0
        error: set contents.1.colour: PackageContent has no key "colour" (after "contents.1")

        """)
  }

  @Test("in batch mode the first error ends the run with status 1")
  func firstErrorStops() {
    let run = transcript("set recipient.firstName Bea\nbogus\nset recipient.firstName Cy\n")
    #expect(
      run.stdout
        == "summary: Bea Smith, 1 Main St · from Bob Jones · 2 items (3 pcs, 1.5 kg): Books ×2, Mug\n"
    )
    #expect(run.stderr == "error: unknown command \"bogus\" (type help for the list)\n")
    #expect(run.status == 1)
  }

  @Test("save, load and new, with a file created on first save; load forgets the undo history")
  func files() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "editor-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let file = directory.appendingPathComponent("p.json").path
    let other = directory.appendingPathComponent("q.json").path
    let run = transcript(
      """
      set recipient.firstName Bea
      save
      new
      save \(other)
      load \(file)
      undo
      load \(directory.path)/missing.json
      """, options: EditorOptions(file: file, keepGoing: true))
    #expect(
      run.stdout.replacingOccurrences(of: directory.path, with: "D") == """
        summary: Bea · from (no name) · no items
        saved D/p.json
        summary: (no name) · from (no name) · no items
        saved a copy to D/q.json (still editing D/p.json)
        loaded D/p.json
        summary: Bea · from (no name) · no items

        """)
    #expect(
      run.stderr.replacingOccurrences(of: directory.path, with: "D") == """
        error: undo: nothing to undo
        error: load: cannot read D/missing.json: no such file

        """)
    let reopened = transcript("get recipient.firstName", options: EditorOptions(file: file))
    #expect(reopened.stdout == "Bea\n")
  }

  @Test("a file that cannot be loaded at start-up ends the run with status 1")
  func badStartFile() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
      "bad-\(UUID().uuidString).json"
    ).path
    try Data("{".utf8).write(to: URL(fileURLWithPath: path))
    let run = transcript("show", options: EditorOptions(file: path))
    #expect(run.stdout == "")
    #expect(
      run.stderr.hasPrefix("error: cannot start: \(path) is not a package file (not valid JSON:"))
    #expect(run.status == 1)
  }

  @Test(
    "interactive mode has a banner; quit with unsaved changes says so and stays, until asked again")
  func interactive() {
    let run = transcript(
      "set recipient.firstName Bea\nbogus\nquit\nsummary\nexit\nignored", interactive: true)
    let summary = "Ann Smith, 1 Main St · from Bob Jones · 2 items (3 pcs, 1.5 kg): Books ×2, Mug"
    #expect(
      run.stdout == """
        package-editor: editing the built-in sample package; type help for commands, quit to leave
        summary: \(summary)
        summary: \(summary.replacingOccurrences(of: "Ann", with: "Bea"))
        summary: \(summary.replacingOccurrences(of: "Ann", with: "Bea"))

        """)
    #expect(
      run.stderr == """
        error: unknown command "bogus" (type help for the list)
        warning: there are unsaved changes: save them with save [file], or quit again (or quit!) to discard them

        """)
    #expect(run.status == 0)
  }

  @Test(
    "quit! leaves at once; end of input asks like quit; a change after the warning asks again; batch mode never asks"
  )
  func quitting() {
    let warning =
      "warning: there are unsaved changes: save them with save [file], or quit again (or quit!) to discard them\n"
    #expect(transcript("new\nquit!\nbogus", interactive: true).stderr == "")
    let endOfInput = transcript("new", interactive: true)
    #expect(endOfInput.stderr == warning && endOfInput.status == 0)
    let changedAgain = transcript("new\nquit\nundo\nquit\nexit\nbogus", interactive: true)
    #expect(changedAgain.stderr == warning + warning)
    let saved = transcript("new\nsave p.json\nquit\nbogus", interactive: true)
    #expect(saved.stderr == "")
    #expect(transcript("new\nquit\nbogus").stderr == "")
    #expect(transcript("new\nexit!\nbogus").status == 0)
  }

  @Test("interactive mode prompts before every line it reads; batch mode never does")
  func prompts() {
    var prompts: [String] = []
    let output = CapturedOutput()
    _ = Editor.run(
      options: EditorOptions(), interactive: true, source: ScriptSource(["summary", "quit"]),
      output: output, prompt: { prompts.append($0) })
    #expect(prompts == ["package> ", "package> "])
    _ = Editor.run(
      options: EditorOptions(), interactive: false, source: ScriptSource(["summary"]),
      output: output, prompt: { prompts.append($0) })
    #expect(prompts.count == 2)
  }

  @Test("help lists the commands; help keys lists every settable key path; ? is help")
  func help() {
    let run = transcript("help keys\nhelp get\n? undo")
    #expect(
      run.stdout == """
        settable key paths:
          recipient.firstName
          recipient.lastName
          recipient.postalAddress.street
          recipient.postalAddress.city
          recipient.postalAddress.postalCode
          recipient.postalAddress.country
          sender.firstName
          sender.lastName
          sender.postalAddress.street
          sender.postalAddress.city
          sender.postalAddress.postalCode
          sender.postalAddress.country
          contents.<index>.title, contents.<index>.quantity, contents.<index>.weight
        readable too: totalWeight, summary, recipient.fullName, contents.@count, …
        usage: get <keyPath>
        print one value: get totalWeight
        totalWeight is the package's weight, as the summary shows it. Collection
        operators apply to the contents: contents.@sum.quantity, contents.@max.weight
        (contents.@sum.weight adds the weight of one piece of each line).
        usage: undo
        undo the last command that changed the package

        """)
    let list = transcript("help").stdout
    #expect(list.hasPrefix("commands:\n  help [command | keys]     list the commands"))
    #expect(list.split(separator: "\n").count == 27)
  }

  @Test("every line of help fits 80 columns: the list, each command, the keys")
  func helpFitsTheTerminal() {
    let topics = [nil, "keys"] + CommandTable.allNames.map(Optional.some)
    for topic in topics {
      let lines = (try? HelpText.text(for: topic)) ?? ["missing \(topic ?? "")"]
      for line in lines {
        #expect(DisplayWidth.of(line) <= 80, "\(line)")
      }
    }
  }
}
