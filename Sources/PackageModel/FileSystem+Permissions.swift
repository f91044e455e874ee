#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What a save that may not write says: whose file it is, with which permissions, and what
/// makes a read-only file writable.
extension FileSystem.Failure {
  /// The file `info` describes has no write permission for anyone; ``readOnlyOwner`` is its
  /// owner, for the remedy (see ``FileSystem/readOnlyRemedy(owner:name:)``).
  static func readOnly(_ info: stat) -> FileSystem.Failure {
    var failure = FileSystem.Failure("the file is read-only")
    failure.readOnlyOwner = info.st_uid
    return failure
  }

  /// The user may not write the file `info` describes: `permission denied: user bob may not
  /// write it (it belongs to ann, rw-r--r--)`.
  static func mayNotWrite(_ info: stat) -> FileSystem.Failure {
    FileSystem.Failure(
      "permission denied: user \(FileSystem.userName(geteuid())) may not write it (it belongs to \(FileSystem.userName(info.st_uid)), \(FileSystem.permissions(info.st_mode)))"
    )
  }

  /// The user may not create a file in the directory of the one to save.
  static var mayNotCreate: FileSystem.Failure {
    FileSystem.Failure(
      "permission denied: user \(FileSystem.userName(geteuid())) may not create files in its directory"
    )
  }
}

extension FileSystem {
  /// What makes a read-only file that `owner` owns writable, to follow its reason: ` (chmod u+w
  /// NAME makes it writable)` for the user's own file (or any, for root), `, and only its owner
  /// (ann) can make it writable` for another's. `name` is the file as the user named it.
  static func readOnlyRemedy(owner: uid_t, name: String) -> String {
    guard owner == geteuid() || geteuid() == 0 else {
      return ", and only its owner (\(userName(owner))) can make it writable"
    }
    return " (chmod u+w \(shellQuoted(name)) makes it writable)"
  }

  /// `name` as a shell reads it: as it is when it is plain, otherwise in single quotes; a
  /// name that starts with `-` gets `./` so that it is not read as an option.
  static func shellQuoted(_ name: String) -> String {
    let name = name.hasPrefix("-") ? "./" + name : name
    let plain = name.unicodeScalars.allSatisfy {
      $0.isASCII
        && ($0.properties.isAlphabetic || $0.properties.numericType != nil
          || "_./+-:@%=,".unicodeScalars.contains($0))
    }
    guard !plain || name.isEmpty else { return name }
    return "'" + name.replacing("'", with: "'\\''") + "'"
  }

  /// The permissions of `mode` as `ls` shows them: `rw-r--r--`.
  static func permissions(_ mode: mode_t) -> String {
    var text = ""
    for shift in [6, 3, 0] {
      let bits = Int(mode) >> shift
      text +=
        (bits & 4 != 0 ? "r" : "-") + (bits & 2 != 0 ? "w" : "-") + (bits & 1 != 0 ? "x" : "-")
    }
    return text
  }

  /// The name of the user `uid` (`uid 1234` if it has none).
  static func userName(_ uid: uid_t) -> String {
    var entry = passwd()
    var result: UnsafeMutablePointer<passwd>?
    var buffer = [CChar](repeating: 0, count: 4096)
    guard getpwuid_r(uid, &entry, &buffer, buffer.count, &result) == 0, result != nil,
      let name = entry.pw_name
    else { return "uid \(uid)" }
    return String(cString: name)
  }
}
