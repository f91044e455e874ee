#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension FileSystem {
  /// Writes `bytes` to `path` so that a failure leaves the previous file intact.
  ///
  /// - A symbolic link is followed: its target is written, and the link stays a link.
  /// - An existing file keeps its permissions (and, where the system allows, its owner); a
  ///   read-only one is refused, as is anything that is not a regular file.
  /// - The bytes go to a short-named temporary file in the same directory (so every name the
  ///   file system accepts can be saved), which then replaces the file by a rename. A file
  ///   with other hard links is rewritten in place instead, so that the links keep sharing it,
  ///   and so is a writable file in a directory where no new file can be made. Those writes
  ///   are not atomic, but never leave the file corrupt: the file is first grown to its new
  ///   size (which fails at once past the size limit or, where the file system can reserve
  ///   space, on a full disk), and if a write still fails, the old bytes are written back.
  /// - A name ending in `/` is refused (it names a directory), and so is a symbolic link that
  ///   another user planted in a shared directory (see ``checkLinks(_:)``).
  ///
  /// The process must ignore `SIGXFSZ` (the editor does), so that passing the size limit is
  /// the error `EFBIG` rather than the end of the process.
  ///
  /// Two editors saving one file take turns: the save holds the file's lock (see ``FileLock``:
  /// a lock file beside it, which only those who may write the file can take, and the file's
  /// own write lock) across reading it, growing, writing and truncating it, and the rename; a
  /// load waits while a save holds it. Under that lock the file must be what `expectation`
  /// says, or nothing is written and the failure is a conflict: another program changed (or
  /// created) it since the editor last read or wrote it.
  static func writeAtomically(
    _ bytes: [UInt8], to path: String, expecting expectation: Expectation = .anything,
    lockWait: Double = lockWait
  ) throws(Failure) {
    guard !path.isEmpty else { throw Failure("the file name is empty") }
    guard !path.hasSuffix("/") else { throw Failure("a file name cannot end with /") }
    let target = try resolvingLinks(path)
    var info = stat()
    let present = lstat(target, &info) == 0
    if present {
      guard isRegular(info.st_mode) else {
        throw Failure("it is \(kind(info.st_mode)), not a regular file")
      }
      guard info.st_mode & 0o222 != 0 else { throw Failure.readOnly(info) }
      guard access(target, W_OK) == 0 else {
        throw errno == EACCES ? Failure.mayNotWrite(info) : Failure(reason(errno))
      }
      try checkSameFile(path, as: info)
    }
    // The lock first, then the file's own: every editor takes them in this order.
    let lock = try FileLock.acquire(target, wait: lockWait)
    defer { lock.release() }
    var locked: Int32?
    defer { if let locked { close(locked) } }
    if present {
      locked = try openLocked(target, wait: lockWait)
      if let locked, fstat(locked, &info) != 0 { throw Failure(reason(errno)) }
    }
    try check(expectation, descriptor: locked)
    if let locked, info.st_nlink > 1 { return try writeInPlace(bytes, to: locked) }
    let descriptor: Int32
    let temporary: String
    do {
      (descriptor, temporary) = try createTemporary(
        nextTo: target, mode: locked != nil ? 0o600 : 0o666)
    } catch {
      // A writable file in a directory that is not: it can only be rewritten in place.
      guard let locked, error == Failure.mayNotCreate else { throw error }
      return try writeInPlace(bytes, to: locked)
    }
    do throws(Failure) {
      if locked != nil {
        // Only the owner or root may change these; a failure of chown leaves the saver's.
        _ = fchown(descriptor, info.st_uid, info.st_gid)
        guard fchmod(descriptor, info.st_mode & 0o7777) == 0 else { throw Failure(reason(errno)) }
      }
      try writeAll(bytes, to: descriptor)
      guard fsync(descriptor) == 0 else { throw Failure(reason(errno)) }
    } catch {
      close(descriptor)
      unlink(temporary)
      throw error
    }
    let closed = close(descriptor) == 0
    let code = errno
    guard closed else {
      unlink(temporary)
      throw Failure(reason(code))
    }
    try moveIntoPlace(temporary, target, createOnly: locked == nil && expectation == .absent)
  }

  /// Renames `temporary` to `target`; with `createOnly`, only if nothing is at `target` (a
  /// hard link, which fails if the name is taken, then the temporary name is removed), so that
  /// a file another program created meanwhile is never replaced.
  private static func moveIntoPlace(_ temporary: String, _ target: String, createOnly: Bool)
    throws(Failure)
  {
    if createOnly {
      if link(temporary, target) == 0 {
        unlink(temporary)
        return
      }
      let code = errno
      guard code != EEXIST else {
        unlink(temporary)
        throw Failure.conflict(created: true)
      }
      // A file system without hard links: check, then rename (a narrow window remains).
      var info = stat()
      guard code == EPERM || code == ENOTSUP || code == EOPNOTSUPP || code == EMLINK,
        lstat(target, &info) != 0
      else {
        unlink(temporary)
        throw lstat(target, &info) == 0 ? Failure.conflict(created: true) : Failure(reason(code))
      }
    }
    guard rename(temporary, target) == 0 else {
      let failure = Failure(reason(errno))
      unlink(temporary)
      throw failure
    }
  }

  /// Creates a new, empty temporary file in the directory of `target` with `mode` (less the
  /// umask); returns its descriptor and name.
  private static func createTemporary(nextTo target: String, mode: mode_t) throws(Failure) -> (
    Int32, String
  ) {
    let directory = directoryPrefix(of: target)
    for _ in 0..<16 {
      let name =
        directory + ".package-editor-" + String(UInt64.random(in: 0...UInt64.max), radix: 36)
        + ".tmp"
      let descriptor = open(name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
      if descriptor >= 0 { return (descriptor, name) }
      guard errno == EEXIST else {
        switch errno {
        case ENOENT: throw Failure("the directory does not exist")
        case EACCES: throw Failure.mayNotCreate
        default: throw Failure(reason(errno))
        }
      }
    }
    throw Failure("cannot create a temporary file next to it")
  }

  /// Checks that the kernel, following the links of `path` itself, reaches the file the
  /// editor resolved (`info`): nothing replaced a link meanwhile, and no check of the kernel's
  /// (such as `fs.protected_symlinks`) refuses the way.
  private static func checkSameFile(_ path: String, as info: stat) throws(Failure) {
    let descriptor = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
    guard descriptor >= 0 else { throw Failure(reason(errno)) }
    defer { close(descriptor) }
    var opened = stat()
    guard fstat(descriptor, &opened) == 0 else { throw Failure(reason(errno)) }
    guard opened.st_dev == info.st_dev, opened.st_ino == info.st_ino else {
      throw Failure("the file was replaced while it was being saved")
    }
  }

  /// Rewrites the regular file open (and locked) as `descriptor` in place, never leaving it corrupt: the old bytes are
  /// read first; the file is grown to its new size before anything is written (so passing the
  /// size limit, or a full disk where space can be reserved, fails before the content changes);
  /// if a write fails all the same, the old bytes are written back.
  private static func writeInPlace(_ bytes: [UInt8], to descriptor: Int32) throws(Failure) {
    let old = try readAll(descriptor)
    if bytes.count > old.count {
      guard ftruncate(descriptor, off_t(bytes.count)) == 0 else { throw Failure(reason(errno)) }
      #if os(Linux)
        let reserved = posix_fallocate(descriptor, 0, off_t(bytes.count))
        if reserved != 0, reserved != EOPNOTSUPP, reserved != EINVAL {
          _ = ftruncate(descriptor, off_t(old.count))
          throw Failure(reason(reserved))
        }
      #endif
    }
    do throws(Failure) {
      try writeAll(bytes, to: descriptor)
      guard ftruncate(descriptor, off_t(bytes.count)) == 0, fsync(descriptor) == 0 else {
        throw Failure(reason(errno))
      }
    } catch {
      // Put the old content back (its blocks are already allocated, so this can succeed).
      _ = try? writeAll(old, to: descriptor)
      _ = ftruncate(descriptor, off_t(old.count))
      _ = fsync(descriptor)
      throw error
    }
  }

  /// Every byte of an open file, from its start.
  static func readAll(_ descriptor: Int32) throws(Failure) -> [UInt8] {
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    var offset: off_t = 0
    while true {
      let count = chunk.withUnsafeMutableBytes {
        pread(descriptor, $0.baseAddress!, $0.count, offset)
      }
      if count < 0 {
        if errno == EINTR { continue }
        throw Failure(reason(errno))
      }
      if count == 0 { return bytes }
      bytes += chunk[..<count]
      offset += off_t(count)
    }
  }

  /// Writes all of `bytes` from the start of the file, retrying partial and interrupted writes.
  private static func writeAll(_ bytes: [UInt8], to descriptor: Int32) throws(Failure) {
    var offset = 0
    while offset < bytes.count {
      let written = bytes.withUnsafeBytes { buffer in
        pwrite(descriptor, buffer.baseAddress! + offset, buffer.count - offset, off_t(offset))
      }
      if written < 0 {
        if errno == EINTR { continue }
        throw Failure(reason(errno))
      }
      offset += written
    }
  }
}
