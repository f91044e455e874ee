#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The file operations behind ``PackageFile``, on the C library's calls: Foundation's file
/// APIs replace a symbolic link by a regular file, reset permissions, block on a FIFO, and
/// report errors as "NSCocoaErrorDomain error 256".
///
/// Every failure is a ``Failure`` whose reason is a short, specific phrase.
enum FileSystem {
  /// Why an operation failed, as a phrase: `no such file`, `it is a directory, not a regular
  /// file`.
  struct Failure: Error, Equatable {
    let reason: String
    /// Whether the file changed on disk since it was read or written (see ``Expectation``).
    var isConflict = false
    /// The owner of a read-only file that a save refused (see ``readOnly(_:)``).
    var readOnlyOwner: uid_t?
    init(_ reason: String, isConflict: Bool = false) {
      self.reason = reason
      self.isConflict = isConflict
    }
  }

  /// The largest file ``read(_:)`` accepts: 16 MiB, far above any package (a package of
  /// 100,000 contents takes about 8 MiB). Decoding costs about fourteen times the file's size,
  /// so the limit bounds the memory a hostile file can take.
  static let maximumReadSize = 16 << 20

  /// The bytes of the regular file at `path` (through symbolic links). Special files (a FIFO,
  /// a device, a directory) are refused without reading them, so that nothing blocks; a file
  /// larger than ``maximumReadSize`` is refused by its size before anything is read, and the
  /// read stops there if the file grows meanwhile. A save in progress is waited for, up to
  /// `lockWait` seconds (see ``FileLock``): through its lock file, or, for a user who may not
  /// write the file (who cannot take that), through the file's own write lock, which a save
  /// that rewrites the file in place holds (one that renames a new file over it needs no wait).
  static func read(_ path: String, lockWait: Double = lockWait) throws(Failure) -> [UInt8] {
    try checkLinks(path)
    let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
    guard descriptor >= 0 else { throw Failure(reason(errno)) }
    defer { close(descriptor) }
    var info = stat()
    guard fstat(descriptor, &info) == 0 else { throw Failure(reason(errno)) }
    guard isRegular(info.st_mode) else {
      throw Failure("it is \(kind(info.st_mode)), not a regular file")
    }
    let tooLarge = Failure(
      "it is too large (a package file has at most \(maximumReadSize >> 20) MiB)")
    guard info.st_size <= maximumReadSize else { throw tooLarge }
    // An editor saving the file holds its lock: wait for it to finish.
    let lock = try FileLock.acquire(
      (try? followLinks(from: path, strict: true)) ?? path, wait: lockWait)
    defer { lock.release() }
    try FileLock.waitForWriters(descriptor, wait: lockWait)
    guard fstat(descriptor, &info) == 0 else { throw Failure(reason(errno)) }
    // One buffer of the size the file claims, plus one byte to notice that it grew.
    var bytes = [UInt8](repeating: 0, count: Int(info.st_size) + 1)
    var count = 0
    while true {
      if count == bytes.count {
        guard bytes.count <= maximumReadSize else { throw tooLarge }
        bytes += [UInt8](repeating: 0, count: min(bytes.count, maximumReadSize + 1 - bytes.count))
      }
      let read = bytes.withUnsafeMutableBytes {
        systemRead(descriptor, $0.baseAddress! + count, $0.count - count)
      }
      if read < 0 {
        if errno == EINTR { continue }
        throw Failure(reason(errno))
      }
      if read == 0 { break }
      count += read
    }
    bytes.removeLast(bytes.count - count)
    return bytes
  }

  /// Whether something (a file, a link, even a dangling one) is at `path`; errors other than
  /// "no such file" are thrown.
  static func exists(_ path: String) throws(Failure) -> Bool {
    var info = stat()
    if lstat(path, &info) == 0 { return true }
    if errno == ENOENT { return false }
    throw Failure(reason(errno))
  }

  /// Follows symbolic links from `path` to the name they finally lead to, which may not exist
  /// yet (a dangling link names the file a save creates), refusing a planted link as
  /// ``checkLinks(_:)`` does.
  static func resolvingLinks(_ path: String) throws(Failure) -> String {
    try followLinks(from: path, strict: true)
  }

  /// Refuses to follow, from `path`, a symbolic link that another user planted in a shared
  /// directory: the rule of Linux's `fs.protected_symlinks`, applied whether or not the system
  /// enables it, because the editor writes through links itself (it renames a temporary file
  /// onto the link's target). A link in a sticky directory anyone can write (`/tmp`) is followed
  /// only if it belongs to the user or to the directory's owner. Other errors are left to the
  /// operation that follows (an `open` reports them).
  static func checkLinks(_ path: String) throws(Failure) {
    _ = try followLinks(from: path, strict: false)
  }

  /// Walks the links from `path`, checking each with the rule of ``checkLinks(_:)``, to the
  /// name that is not a link. Unless `strict`, a link that cannot be read ends the walk there
  /// rather than throwing.
  private static func followLinks(from path: String, strict: Bool) throws(Failure) -> String {
    var current = path
    for _ in 0..<40 {
      var info = stat()
      guard lstat(current, &info) == 0 else {
        if errno == ENOENT || !strict { return current }
        throw Failure(reason(errno))
      }
      guard info.st_mode & S_IFMT == S_IFLNK else { return current }
      let directory = directoryPrefix(of: current)
      var parent = stat()
      if stat(directory.isEmpty ? "." : directory, &parent) == 0,
        parent.st_mode & S_ISVTX != 0, parent.st_mode & 0o002 != 0,
        info.st_uid != geteuid(), info.st_uid != parent.st_uid
      {
        throw Failure(
          "it is a symbolic link that another user owns in a shared directory; not following it")
      }
      do {
        current = try linkTarget(current)
      } catch {
        if strict { throw error }
        return current
      }
    }
    if strict { throw Failure(reason(ELOOP)) }
    return current
  }

  /// The name the symbolic link at `link` points to, made absolute or relative to the current
  /// directory as the link's own name is.
  private static func linkTarget(_ link: String) throws(Failure) -> String {
    var buffer = [UInt8](repeating: 0, count: Int(PATH_MAX) + 1)
    let count = buffer.withUnsafeMutableBytes {
      readlink(link, $0.baseAddress!.assumingMemoryBound(to: CChar.self), $0.count - 1)
    }
    guard count >= 0 else { throw Failure(reason(errno)) }
    guard let target = String(validating: buffer[..<count], as: UTF8.self) else {
      throw Failure("the symbolic link's target is not a UTF-8 name")
    }
    return target.hasPrefix("/") ? target : directoryPrefix(of: link) + target
  }

  /// `path` up to and including its last `/`; empty if it has none.
  static func directoryPrefix(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "" }
    return String(path[...slash])
  }

  static func isRegular(_ mode: mode_t) -> Bool { mode & S_IFMT == S_IFREG }

  /// What kind of file `mode` describes, with an article: `a directory`, `a FIFO`.
  static func kind(_ mode: mode_t) -> String {
    switch mode & S_IFMT {
    case S_IFDIR: "a directory"
    case S_IFIFO: "a FIFO"
    case S_IFCHR: "a character device"
    case S_IFBLK: "a block device"
    case S_IFSOCK: "a socket"
    case S_IFLNK: "a symbolic link"
    default: "a regular file"
    }
  }

  /// A short reason for the C library's error `code`.
  static func reason(_ code: Int32) -> String {
    switch code {
    case ENOENT: return "no such file"
    case EACCES, EPERM: return "permission denied"
    case EISDIR: return "it is a directory, not a regular file"
    case ENOSPC: return "no space left on the device"
    case EDQUOT: return "the disk quota is exhausted"
    case EFBIG: return "the file would pass the size limit"
    case EROFS: return "the file system is read-only"
    case ENAMETOOLONG: return "the name is too long"
    case ELOOP: return "too many levels of symbolic links"
    case ENOTDIR: return "a part of the path is not a directory"
    default:
      guard let text = strerror(code) else { return "error \(code)" }
      let message = String(cString: text)
      return message.prefix(1).lowercased() + message.dropFirst()
    }
  }
}

/// `read(2)`, under a name that does not clash with ``FileSystem/read(_:)``.
func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
  read(descriptor, buffer, count)
}
