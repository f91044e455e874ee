/// Saving and loading packages.
///
/// Files are handled the way a careful editor handles them (see ``save(_:to:naming:)``):
/// through symbolic links, keeping permissions, refusing special files, and never leaving a
/// half-written file behind. Errors name the file (as the caller named it) and say what went
/// wrong in a short phrase.
public enum PackageFile {
  /// Writes `package` to `path`.
  ///
  /// - A symbolic link is followed: its target is written, and the link stays a link.
  /// - An existing file keeps its permissions; a read-only file, a directory, a FIFO, a device
  ///   or a socket is refused, and so is a name ending in `/`.
  /// - The document goes to a temporary file in the same directory, which then replaces the
  ///   file by a rename: a failed save (no space, no permission, the file size limit) leaves the
  ///   previous file intact and no temporary file behind. A file with other hard links is
  ///   rewritten in place, so that the links keep sharing it; it is grown to its new size first
  ///   and its old bytes are put back if a write fails, so it is never left corrupt.
  /// - A symbolic link that another user owns in a sticky shared directory is not followed.
  ///
  /// The process must ignore `SIGXFSZ`, so that the file size limit is an error, not the end of
  /// the process.
  ///
  /// - Parameters:
  ///   - package: The package to save, as it is now.
  ///   - path: Where to save it.
  ///   - name: How errors name the file (by default `path`).
  /// - Throws: ``PackageFileError/unwritable(path:reason:)``.
  public static func save(_ package: Package, to path: String, naming name: String? = nil)
    throws(PackageFileError)
  {
    do {
      try FileSystem.writeAtomically(Array(PackageDocument(package).encoded()), to: path)
    } catch {
      throw .unwritable(path: name ?? path, reason: error.reason)
    }
  }

  /// Reads and validates the whole document at `path` (through symbolic links, but not one that
  /// another user owns in a sticky shared directory), without touching any package. Special
  /// files are refused without being read, and files over 16 MiB by their size.
  ///
  /// - Parameters:
  ///   - path: The file to read.
  ///   - name: How errors name the file (by default `path`).
  /// - Throws: ``PackageFileError`` naming the problem.
  public static func read(_ path: String, naming name: String? = nil) throws(PackageFileError)
    -> PackageDocument
  {
    let bytes: [UInt8]
    do {
      bytes = try FileSystem.read(path)
    } catch {
      throw .unreadable(path: name ?? path, reason: error.reason)
    }
    return try PackageDocument.decode(bytes, path: name ?? path)
  }

  /// Like ``read(_:naming:)``, but `nil` when nothing is at `path` (a file to be created by
  /// the first save; a dangling symbolic link counts as nothing).
  public static func readIfPresent(_ path: String, naming name: String? = nil)
    throws(PackageFileError)
    -> PackageDocument?
  {
    let present: Bool
    do {
      present = try FileSystem.exists(path)
    } catch {
      throw .unreadable(path: name ?? path, reason: error.reason)
    }
    guard present else { return nil }
    do {
      return try read(path, naming: name)
    } catch {
      if case .unreadable(_, "no such file") = error { return nil }
      throw error
    }
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
