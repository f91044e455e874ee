#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension FileLock {
  /// Who holds a lock on the file `info` describes: `process 1234 (package-editor, user ann)`,
  /// from the system's table of locks (`/proc/locks`, Linux); `nil` where there is none, or it
  /// does not say (it names no process for a lock of an open file description). The process's name is the one the system keeps (at most 15 bytes), with any
  /// control character shown as `?`.
  static func holderDescription(of info: stat) -> String? {
    #if os(Linux)
      guard let table = contents(of: "/proc/locks") else { return nil }
      let major = (UInt64(info.st_dev) >> 8) & 0xfff | (UInt64(info.st_dev) >> 32) & ~0xfff
      let minor = UInt64(info.st_dev) & 0xff | (UInt64(info.st_dev) >> 12) & ~0xff
      let device = hex(major) + ":" + hex(minor) + ":" + String(UInt64(info.st_ino))
      // `1: FLOCK  ADVISORY  WRITE 1234 fe:00:5309206 0 EOF`; waiters' lines have `->`.
      for line in table.split(separator: "\n") where !line.contains("->") {
        let fields = line.split(separator: " ")
        guard fields.count >= 6, fields[5] == device, let pid = Int32(fields[4]), pid > 0 else {
          continue
        }
        let name = contents(of: "/proc/\(pid)/comm").map { comm in
          String(
            comm.unicodeScalars.filter { $0 != "\n" }.map {
              $0.value < 0x20 || (0x7F...0x9F).contains($0.value) ? "?" : Character($0)
            })
        }
        var process = stat()
        let user = stat("/proc/\(pid)", &process) == 0 ? FileSystem.userName(process.st_uid) : nil
        let details = [name, user.map { "user " + $0 }].compactMap { $0 }
        return "process \(pid)"
          + (details.isEmpty ? "" : " (" + details.joined(separator: ", ") + ")")
      }
    #endif
    return nil
  }

  /// `value` in lowercase hexadecimal, at least two digits (as `/proc/locks` writes devices).
  private static func hex(_ value: UInt64) -> String {
    let digits = String(value, radix: 16)
    return digits.count < 2 ? "0" + digits : digits
  }

  /// The text of a small file (of the system's), or `nil` if it cannot be read.
  private static func contents(of path: String) -> String? {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while bytes.count < 1 << 24 {
      let count = chunk.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress!, $0.count) }
      if count < 0, errno == EINTR { continue }
      guard count > 0 else { break }
      bytes += chunk[..<count]
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}
