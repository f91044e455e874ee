/// Saving and loading packages.
///
/// Files are handled the way a careful editor handles them (see ``save(_:to:naming:)``):
/// through symbolic links, keeping permissions, refusing special files, and never leaving a
/// half-written file behind. Errors name the file (as the caller named it) and say what went
/// wrong in a short phrase.
public enum PackageFile {
  /// Writes `package` to `path`, over whatever is there (see
  /// ``save(_:to:naming:replacing:keeping:)``).
  public static func save(_ package: Package, to path: String, naming name: String? = nil)
    throws(PackageFileError)
  {
    _ = try save(package, to: path, naming: name, replacing: nil, keeping: nil)
  }

  /// Writes `package` to `path`, and returns the snapshot of what it wrote.
  ///
  /// - A symbolic link is followed: its target is written, and the link stays a link.
  /// - An existing file keeps its permissions; a read-only file, a directory, a FIFO, a device
  ///   or a socket is refused, and so is a name ending in `/`. The error says what would make
  ///   a read-only file writable (`chmod u+w NAME`, or its owner), and whom a file or
  ///   directory the user may not write belongs to.
  /// - The document goes to a temporary file in the same directory, which then replaces the
  ///   file by a rename: a failed save (no space, no permission, the file size limit) leaves the
  ///   previous file intact and no temporary file behind. A file with other hard links is
  ///   rewritten in place, so that the links keep sharing it; it is grown to its new size first
  ///   and its old bytes are put back if a write fails, so it is never left corrupt.
  /// - A symbolic link that another user owns in a sticky shared directory is not followed.
  /// - Two editors saving the same file take turns (a lock file beside it, which only those who
  ///   may write the file can take, held from reading it to the rename), and a load waits for a
  ///   save in progress. A program that may only read the file cannot hold up either.
  ///
  /// The process must ignore `SIGXFSZ`, so that the file size limit is an error, not the end of
  /// the process.
  ///
  /// - Parameters:
  ///   - package: The package to save, as it is now.
  ///   - path: Where to save it.
  ///   - name: How errors name the file (by default `path`).
  ///   - expected: What the file held when it was loaded or last saved; if it now holds
  ///     anything else (or exists, when it did not), nothing is written and the error is
  ///     ``PackageFileError/changedOnDisk(path:reason:)``. `nil` overwrites whatever is there.
  ///   - source: The file the package was loaded from, whose fields this version does not know
  ///     are kept (and whose bytes are kept where nothing changed); `nil` writes the document
  ///     afresh.
  /// - Returns: The snapshot of the saved file, its contents adopted from `package`.
  /// - Throws: ``PackageFileError/unwritable(path:reason:)`` or
  ///   ``PackageFileError/changedOnDisk(path:reason:)``.
  @discardableResult
  public static func save(
    _ package: Package, to path: String, naming name: String? = nil,
    replacing expected: PackageFileSnapshot?, keeping source: PackageFileSnapshot?
  ) throws(PackageFileError) -> PackageFileSnapshot {
    let bytes = text(of: package, keeping: source)
    do {
      try FileSystem.writeAtomically(
        bytes, to: path, expecting: expected?.expectation ?? .anything)
    } catch  where error.isConflict {
      throw .changedOnDisk(path: name ?? path, reason: error.reason)
    } catch {
      let remedy = error.readOnlyOwner.map {
        FileSystem.readOnlyRemedy(owner: $0, name: name ?? path)
      }
      throw .unwritable(path: name ?? path, reason: error.reason + (remedy ?? ""))
    }
    var written = PackageFileSnapshot(bytes: bytes)
    written.adoptContents(of: package, keeping: source)
    return written
  }

  /// The bytes ``save(_:to:naming:replacing:keeping:)`` writes for `package`: `source`'s file
  /// with the package's values written into it, or the document afresh.
  public static func text(of package: Package, keeping source: PackageFileSnapshot?) -> [UInt8] {
    source?.text(of: package) ?? Array(PackageDocument(package).encoded())
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
    try load(path, naming: name).document
  }

  /// Like ``read(_:naming:)``, and the snapshot of the file's bytes (to save over it later, see
  /// ``save(_:to:naming:replacing:keeping:)``). Call
  /// ``PackageFileSnapshot/adoptContents(of:keeping:)`` once the document is applied to a package.
  public static func load(_ path: String, naming name: String? = nil) throws(PackageFileError)
    -> (document: PackageDocument, snapshot: PackageFileSnapshot)
  {
    let bytes: [UInt8]
    do {
      bytes = try FileSystem.read(path)
    } catch {
      throw .unreadable(path: name ?? path, reason: error.reason)
    }
    return (
      try PackageDocument.decode(bytes, path: name ?? path), PackageFileSnapshot(bytes: bytes)
    )
  }

  /// Like ``read(_:naming:)``, but `nil` when nothing is at `path` (a file to be created by
  /// the first save; a dangling symbolic link counts as nothing).
  public static func readIfPresent(_ path: String, naming name: String? = nil)
    throws(PackageFileError)
    -> PackageDocument?
  {
    try loadIfPresent(path, naming: name).document
  }

  /// Like ``load(_:naming:)``, but with no document and ``PackageFileSnapshot/absent`` when
  /// nothing is at `path`.
  public static func loadIfPresent(_ path: String, naming name: String? = nil)
    throws(PackageFileError)
    -> (document: PackageDocument?, snapshot: PackageFileSnapshot)
  {
    let present: Bool
    do {
      present = try FileSystem.exists(path)
    } catch {
      throw .unreadable(path: name ?? path, reason: error.reason)
    }
    guard present else { return (nil, .absent) }
    do {
      let (document, snapshot) = try load(path, naming: name)
      return (document, snapshot)
    } catch {
      if case .unreadable(_, "no such file") = error { return (nil, .absent) }
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
