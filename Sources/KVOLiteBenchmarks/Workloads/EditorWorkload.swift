import Foundation

/// Workload R: `package-editor --batch` on a 100,000-line script of set/add/get, timed as a
/// whole process (median of three runs). The editor is an executable, so it is run from the
/// build directory this benchmark runs from: build it first with
/// `swift build -c release --product package-editor`.
enum EditorWorkload {
  static let lines = 100_000

  /// The script: names, adds, counts, cities, full names, in turn.
  static func script() -> String {
    (0..<lines).map { index in
      switch index % 5 {
      case 0: "set recipient.firstName \"Name \(index)\""
      case 1: "add \"Item \(index)\" \(1 + index % 3) 0.25"
      case 2: "get contents.@count"
      case 3: "set recipient.postalAddress.city City\(index)"
      default: "get recipient.fullName"
      }
    }.joined(separator: "\n") + "\n"
  }

  /// The median time in seconds, or why it could not be measured.
  static func run() -> Swift.Result<Double, Failure> {
    let here = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    let editor = here.appendingPathComponent("package-editor")
    guard FileManager.default.isExecutableFile(atPath: editor.path) else {
      return .failure(
        Failure(
          reason:
            "no package-editor beside this binary; build it with swift build -c release --product package-editor"
        ))
    }
    let scriptURL = FileManager.default.temporaryDirectory.appendingPathComponent(
      "kvolite-r-\(UUID().uuidString).txt")
    do {
      try script().write(to: scriptURL, atomically: true, encoding: .utf8)
      defer { try? FileManager.default.removeItem(at: scriptURL) }
      var times: [Double] = []
      for _ in 0..<3 {
        let process = Process()
        process.executableURL = editor
        process.arguments = ["--batch"]
        process.standardInput = try FileHandle(forReadingFrom: scriptURL)
        process.standardOutput = FileHandle.nullDevice
        let start = DispatchTime.now().uptimeNanoseconds
        try process.run()
        process.waitUntilExit()
        times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        guard process.terminationStatus == 0 else {
          return .failure(
            Failure(reason: "package-editor exited with \(process.terminationStatus)"))
        }
      }
      return .success(times.sorted()[1])
    } catch {
      return .failure(Failure(reason: "\(error)"))
    }
  }

  struct Failure: Error {
    let reason: String
  }
}
