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
    init(_ reason: String) { self.reason = reason }
  }

  /// The largest file ``read(_:)`` accepts: 64 MiB, far above any package.
  static let maximumReadSize = 64 << 20

  /// The bytes of the regular file at `path` (through symbolic links). Special files (a FIFO,
  /// a device, a directory) are refused without reading them, so that nothing blocks.
  static func read(_ path: String) throws(Failure) -> [UInt8] {
    let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    guard descriptor >= 0 else { throw Failure(reason(errno)) }
    defer { close(descriptor) }
    var info = stat()
    guard fstat(descriptor, &info) == 0 else { throw Failure(reason(errno)) }
    guard isRegular(info.st_mode) else {
      throw Failure("it is \(kind(info.st_mode)), not a regular file")
    }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = chunk.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress!, $0.count) }
      if count < 0 {
        if errno == EINTR { continue }
        throw Failure(reason(errno))
      }
      if count == 0 { return bytes }
      bytes += chunk[..<count]
      guard bytes.count <= maximumReadSize else {
        throw Failure("it is too large (a package file has at most \(maximumReadSize >> 20) MiB)")
      }
    }
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
  /// yet (a dangling link names the file a save creates).
  static func resolvingLinks(_ path: String) throws(Failure) -> String {
    var current = path
    for _ in 0..<40 {
      var info = stat()
      guard lstat(current, &info) == 0 else {
        if errno == ENOENT { return current }
        throw Failure(reason(errno))
      }
      guard info.st_mode & S_IFMT == S_IFLNK else { return current }
      var buffer = [UInt8](repeating: 0, count: Int(PATH_MAX) + 1)
      let count = buffer.withUnsafeMutableBytes {
        readlink(current, $0.baseAddress!.assumingMemoryBound(to: CChar.self), $0.count - 1)
      }
      guard count >= 0 else { throw Failure(reason(errno)) }
      guard let target = String(validating: buffer[..<count], as: UTF8.self) else {
        throw Failure("the symbolic link's target is not a UTF-8 name")
      }
      current = target.hasPrefix("/") ? target : directoryPrefix(of: current) + target
    }
    throw Failure(reason(ELOOP))
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
