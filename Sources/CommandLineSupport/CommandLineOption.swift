import KVOLite

/// An option of an executable's command line, declared once as a case of the program's enum
/// of options (its raw value is its name, `--filter`): the shared parser reads
/// `--name value`, `--name=value` and flags the way swift-argument-parser's tools do, and
/// answers a mistyped name with the closest one ("did you mean").
package protocol CommandLineOption: CaseIterable, RawRepresentable, Sendable, Equatable
where RawValue == String {
  /// The option's other names (`-h` for `--help`, `--script` for `-f`).
  var aliases: [String] { get }
  /// What its value is, for messages (`a TEXT`: "--filter needs a TEXT"); `nil` for a flag.
  var value: String? { get }
}

extension CommandLineOption {
  /// No other names.
  package var aliases: [String] { [] }
  /// A flag.
  package var value: String? { nil }
}

/// One element of a parsed command line: an option with its value, or an argument.
package enum ParsedArgument<Option: CommandLineOption>: Equatable {
  /// An option, with the name it was given as and its value if it takes one.
  case option(Option, name: String, value: String?)
  /// An argument that is not an option (a FILE), or anything after `--`.
  case argument(String)
}

extension CommandLineOption {
  /// The elements of `arguments` (the command line without the program's name), in order.
  ///
  /// An option that takes a value takes the next argument (`--filter text`), or what follows
  /// its `=` (`--filter=text`); a flag given a value (`--list=yes`) is an error, and so is an
  /// option that is not one of these (with the closest name, if one is close). `-` is an
  /// argument, and so is everything after `--`.
  package static func parse(_ arguments: [String]) throws(UsageError) -> [ParsedArgument<Self>] {
    var parsed: [ParsedArgument<Self>] = []
    var remaining = arguments[...]
    while let argument = remaining.popFirst() {
      if argument == "--" {
        parsed += remaining.map { .argument($0) }
        break
      }
      guard argument.hasPrefix("-"), argument != "-" else {
        parsed.append(.argument(argument))
        continue
      }
      // `--name=value`, for long names only (`-e=x` is the option `-e=x`, unknown).
      let equals = argument.hasPrefix("--") ? argument.firstIndex(of: "=") : nil
      let name = equals.map { String(argument[..<$0]) } ?? argument
      let attached = equals.map { String(argument[argument.index(after: $0)...]) }
      guard let option = allCases.first(where: { $0.rawValue == name || $0.aliases.contains(name) })
      else { throw unknown(name) }
      switch (option.value, attached) {
      case (nil, nil): parsed.append(.option(option, name: name, value: nil))
      case (nil, .some): throw UsageError(description: "\(name) takes no value (\(argument))")
      case (_, let value?): parsed.append(.option(option, name: name, value: value))
      case (let value?, nil):
        guard let next = remaining.popFirst() else {
          throw UsageError(description: "\(name) needs \(value)")
        }
        parsed.append(.option(option, name: name, value: next))
      }
    }
    return parsed
  }

  /// The error for the unknown option `name`, with the long name it most likely means.
  private static func unknown(_ name: String) -> UsageError {
    let stripped = name.drop { $0 == "-" }
    let longNames = allCases.flatMap { [$0.rawValue] + $0.aliases }.filter { $0.hasPrefix("--") }
    // A single letter is too short to guess from (`-i` is not `--iterations`' typo).
    let closest =
      stripped.count < 2
      ? nil
      : Suggestion.closest(to: String(stripped), among: longNames.map { String($0.dropFirst(2)) })
    guard let closest else { return UsageError(description: "unknown option \"\(name)\"") }
    return UsageError(
      description: "unknown option \"\(name)\"; did you mean \"--\(closest)\"?", namesTheFix: true)
  }
}
