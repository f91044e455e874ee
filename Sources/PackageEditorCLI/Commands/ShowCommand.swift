import PackageModel

/// `show`: prints every key path and value, and the contents with their indexes.
struct ShowCommand: ArgumentlessCommand {
  static let configuration = CommandConfiguration(
    name: "show", usage: "show",
    summary: "print every key path and value, contents by index")

  func run(in session: EditorSession) {
    let package = session.package
    let output = session.output
    for path in Package.allObservableKeys.attributeKeyPaths() where path != "summary" {
      output.line(path + " = " + ValueText.quoted((try? package.value(forKeyPath: path)) ?? nil))
    }
    for (index, content) in package.contents.enumerated() {
      output.line(
        "contents.\(index) = \(ValueText.quote(content.title)) ×\(content.quantity), "
          + "\(ValueText.number(content.weight)) kg each")
    }
    output.line("summary = " + ValueText.quote(session.viewModel.summary))
  }
}
