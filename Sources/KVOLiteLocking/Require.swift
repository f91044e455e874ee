/// Stops the program with `message` unless `condition` holds — in every build configuration.
///
/// `precondition` drops its message in `-O` builds, where a documented misuse would stop the
/// program with a bare "Illegal instruction"; `fatalError` keeps it. The condition is checked
/// inline; the message is made only when it fails.
@inlinable @inline(__always)
package func require(
  _ condition: Bool, _ message: @autoclosure () -> String,
  file: StaticString = #fileID, line: UInt = #line
) {
  if _slowPath(!condition) { requirementFailed(message(), file: file, line: line) }
}

/// Stops the program with `message`, out of line, so that a ``require(_:_:file:line:)`` costs
/// its caller a comparison and a branch.
@usableFromInline @inline(never)
package func requirementFailed(_ message: String, file: StaticString, line: UInt) -> Never {
  fatalError(message, file: file, line: line)
}
