import Foundation

/// A fresh, empty directory under the system's temporary directory, removed (with what the
/// test left in it) when the value is released. Tests resolve every file name against one, so
/// that nothing is ever written into the source tree.
public final class TemporaryDirectory {
  /// The directory's path.
  public let path: String

  /// Creates the directory.
  public init() {
    var template = Array((NSTemporaryDirectory() + "/package-editor-tests-XXXXXX").utf8CString)
    path = template.withUnsafeMutableBufferPointer { buffer in
      guard let made = mkdtemp(buffer.baseAddress!) else {
        preconditionFailure("cannot create a temporary directory")
      }
      return String(cString: made)
    }
  }

  /// `name` inside the directory.
  public func file(_ name: String) -> String { path + "/" + name }

  deinit {
    // Make everything removable (a test may leave a read-only file or directory), then remove.
    for subpath in (try? FileManager.default.subpathsOfDirectory(atPath: path)) ?? [] {
      chmod(file(subpath), 0o700)
    }
    try? FileManager.default.removeItem(atPath: path)
  }
}
