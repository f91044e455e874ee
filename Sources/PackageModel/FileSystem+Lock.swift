#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension FileSystem {
  /// What a save expects the file to hold before it writes, so that it never silently
  /// overwrites another program's change (a lost update).
  enum Expectation: Equatable {
    /// Anything: the save overwrites whatever is there (`save!`, a copy).
    case anything
    /// No file: the save creates it, and fails if another program created it meanwhile.
    case absent
    /// These bytes, as last read or written: the save fails if the file now holds others.
    case contents([UInt8])
  }

  /// How long a save or a load waits for another program's lock before giving up.
  static let lockWait = 5.0

  /// Opens the regular file `target` (not following a link) for a save and takes its write
  /// lock (see ``FileLock/lockWrite(_:wait:)``), checking that it still is the file at `target`
  /// once the lock is held (a save that renamed a new file over it meanwhile makes it stale:
  /// then it is opened again). Returns the descriptor, open for reading and writing (for
  /// writing only if the file cannot be read), or `nil` if nothing is at `target`.
  static func openLocked(_ target: String, wait: Double) throws(Failure) -> Int32? {
    for _ in 0..<100 {
      var descriptor = open(target, O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
      if descriptor < 0, errno == EACCES {
        // A file that can be written but not read (mode 0200): `save!` may still replace it.
        descriptor = open(target, O_WRONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
      }
      guard descriptor >= 0 else {
        if errno == ENOENT { return nil }
        throw Failure(reason(errno))
      }
      do {
        try FileLock.lockWrite(descriptor, wait: wait)
      } catch {
        close(descriptor)
        throw error
      }
      var opened = stat()
      var current = stat()
      if fstat(descriptor, &opened) == 0, lstat(target, &current) == 0,
        opened.st_dev == current.st_dev, opened.st_ino == current.st_ino
      {
        return descriptor
      }
      close(descriptor)
    }
    throw Failure("it keeps being replaced while the editor saves it")
  }

  /// Checks that the locked file `descriptor` (or its absence) is what `expectation` says.
  /// - Throws: a ``Failure`` that ``Failure/isConflict`` if another program changed it.
  static func check(_ expectation: Expectation, descriptor: Int32?) throws(Failure) {
    switch (expectation, descriptor) {
    case (.anything, _), (.absent, nil): return
    case (.absent, _?): throw Failure.conflict(created: true)
    case (.contents, nil): return  // Removed meanwhile: saving brings it back, losing nothing.
    case (.contents(let expected), let descriptor?):
      // The whole content is compared, not a hash or a time stamp: a change made within the
      // file system's time resolution, or that kept the size, is still seen.
      guard try readAll(descriptor) == expected else { throw Failure.conflict(created: false) }
    }
  }
}

extension FileSystem.Failure {
  /// The file changed on disk since the editor read or wrote it (or was created, if it was
  /// expected to be absent).
  static func conflict(created: Bool) -> FileSystem.Failure {
    FileSystem.Failure(
      created
        ? "another program created it since this package was started"
        : "it changed on disk since it was loaded or last saved", isConflict: true)
  }
}
