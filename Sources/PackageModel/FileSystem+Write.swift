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
  static func writeAtomically(_ bytes: [UInt8], to path: String) throws(Failure) {
    guard !path.isEmpty else { throw Failure("the file name is empty") }
    guard !path.hasSuffix("/") else { throw Failure("a file name cannot end with /") }
    let target = try resolvingLinks(path)
    var info = stat()
    let exists = lstat(target, &info) == 0
    if exists {
      guard isRegular(info.st_mode) else {
        throw Failure("it is \(kind(info.st_mode)), not a regular file")
      }
      guard info.st_mode & 0o222 != 0 else { throw Failure("the file is read-only") }
      guard access(target, W_OK) == 0 else { throw Failure(reason(errno)) }
      try checkSameFile(path, as: info)
      if info.st_nlink > 1 { return try writeInPlace(bytes, to: target) }
    }
    let descriptor: Int32
    let temporary: String
    do {
      (descriptor, temporary) = try createTemporary(nextTo: target, mode: exists ? 0o600 : 0o666)
    } catch {
      // A writable file in a directory that is not: it can only be rewritten in place.
      guard exists, error == Failure(reason(EACCES)) else { throw error }
      return try writeInPlace(bytes, to: target)
    }
    do throws(Failure) {
      if exists {
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
    guard closed, rename(temporary, target) == 0 else {
      let failure = Failure(reason(closed ? errno : code))
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
        throw Failure(errno == ENOENT ? "the directory does not exist" : reason(errno))
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

  /// Rewrites the regular file `target` in place, never leaving it corrupt: the old bytes are
  /// read first; the file is grown to its new size before anything is written (so passing the
  /// size limit, or a full disk where space can be reserved, fails before the content changes);
  /// if a write fails all the same, the old bytes are written back.
  private static func writeInPlace(_ bytes: [UInt8], to target: String) throws(Failure) {
    let descriptor = open(target, O_RDWR | O_CLOEXEC | O_NOFOLLOW)
    guard descriptor >= 0 else { throw Failure(reason(errno)) }
    defer { close(descriptor) }
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
  private static func readAll(_ descriptor: Int32) throws(Failure) -> [UInt8] {
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
