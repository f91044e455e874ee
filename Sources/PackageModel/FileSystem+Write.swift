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
  ///   and so is a writable file in a directory where no new file can be made (those writes
  ///   are not atomic).
  /// - A name ending in `/` is refused (it names a directory).
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

  /// Rewrites the regular file `target` in place: write, truncate, sync.
  private static func writeInPlace(_ bytes: [UInt8], to target: String) throws(Failure) {
    let descriptor = open(target, O_WRONLY | O_CLOEXEC | O_NOFOLLOW)
    guard descriptor >= 0 else { throw Failure(reason(errno)) }
    defer { close(descriptor) }
    try writeAll(bytes, to: descriptor)
    guard ftruncate(descriptor, off_t(bytes.count)) == 0, fsync(descriptor) == 0 else {
      throw Failure(reason(errno))
    }
  }

  /// Writes all of `bytes`, retrying partial and interrupted writes.
  private static func writeAll(_ bytes: [UInt8], to descriptor: Int32) throws(Failure) {
    var offset = 0
    while offset < bytes.count {
      let written = bytes.withUnsafeBytes { buffer in
        write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
      }
      if written < 0 {
        if errno == EINTR { continue }
        throw Failure(reason(errno))
      }
      offset += written
    }
  }
}
