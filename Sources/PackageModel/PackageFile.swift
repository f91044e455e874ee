import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Saving and loading packages.
public enum PackageFile {
  /// Writes `package` to `path` atomically: into a temporary file in the same directory, which
  /// then replaces the target by a rename. A failed save leaves the previous file intact and no
  /// temporary file behind.
  /// - Throws: ``PackageFileError/unwritable(path:reason:)``.
  public static func save(_ package: Package, to path: String) throws(PackageFileError) {
    let data = PackageDocument(package).encoded()
    let url = URL(fileURLWithPath: path)
    let temporary = url.deletingLastPathComponent()
      .appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp")
    do {
      try data.write(to: temporary)
    } catch {
      try? FileManager.default.removeItem(at: temporary)
      throw .unwritable(path: path, reason: reason(error))
    }
    if rename(temporary.path, url.path) != 0 {
      let message = String(cString: strerror(errno))
      try? FileManager.default.removeItem(at: temporary)
      throw .unwritable(path: path, reason: message)
    }
  }

  /// Reads and validates the whole document at `path`, without touching any package.
  /// - Throws: ``PackageFileError`` naming the problem.
  public static func read(_ path: String) throws(PackageFileError) -> PackageDocument {
    let data: Data
    do {
      data = try Data(contentsOf: URL(fileURLWithPath: path))
    } catch {
      throw .unreadable(path: path, reason: reason(error))
    }
    return try PackageDocument.decode(data, path: path)
  }

  /// A short reason for a Foundation file error.
  private static func reason(_ error: any Error) -> String {
    let nsError = error as NSError
    if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError,
      underlying.domain == NSPOSIXErrorDomain
    {
      return String(cString: strerror(Int32(underlying.code)))
    }
    if nsError.domain == NSCocoaErrorDomain {
      switch nsError.code {
      case NSFileReadNoSuchFileError, NSFileNoSuchFileError: return "no such file"
      case NSFileReadNoPermissionError, NSFileWriteNoPermissionError: return "permission denied"
      default: break
      }
    }
    return nsError.localizedDescription
  }
}

extension Package {
  /// Replaces the recipient, sender and contents with those of a valid document: three
  /// settings (one undo step inside a ``ChangeHistory`` group).
  public func apply(_ document: PackageDocument) {
    let parts = document.makeParts()
    recipient = parts.recipient
    sender = parts.sender
    contents = parts.contents
  }

  /// Empties the package: new, empty recipient and sender, no contents.
  public func reset() {
    recipient = Person()
    sender = Person()
    contents = []
  }
}
