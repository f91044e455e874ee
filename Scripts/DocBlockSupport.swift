// Compiled into the package of Scripts/DocBlocks.swift, as its library DocBlockSupport: the
// checks of the claims that documents' comments state (`// seen == ["Ann"]`).
import Foundation

nonisolated(unsafe) private var failures = 0

/// Checks a claim between two values of one type.
public func _docExpect<Value: Equatable>(
  _ actual: Value, _ expected: Value, _ claim: String, at place: String
) {
  if actual != expected { fail(claim, describe(actual), place) }
}

/// Checks a claim between two values, by their descriptions (an `Any?` against a literal).
@_disfavoredOverload
public func _docExpect<Actual, Expected>(
  _ actual: Actual, _ expected: Expected, _ claim: String, at place: String
) {
  if describe(actual) != describe(expected) { fail(claim, describe(actual), place) }
}

private func describe(_ value: Any) -> String {
  let mirror = Mirror(reflecting: value)
  if mirror.displayStyle == .optional {
    return mirror.children.first.map { describe($0.value) } ?? "nil"
  }
  return String(describing: value)
}

private func fail(_ claim: String, _ actual: String, _ place: String) {
  let name = claim.components(separatedBy: " == ")[0]
  FileHandle.standardError.write(Data("\(place): \(claim) is false: \(name) is \(actual)\n".utf8))
  failures += 1
}

/// Ends the program with status 1 if a claim was false.
public func _docFinish() {
  if failures > 0 { exit(1) }
}
