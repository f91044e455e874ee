/// A package file as the editor last read or wrote it: its bytes, or that there was no file.
///
/// A save compares the file with its snapshot first (see
/// ``PackageFile/save(_:to:naming:replacing:keeping:)``), so that it never silently overwrites
/// another program's change; and a save keeps, from the snapshot, every field of the file that
/// this version does not know, byte for byte where nothing was edited.
///
/// The snapshot knows which content line of the package came from which element of the file
/// (``adoptContents(of:)``, ``contentReplaced(_:by:)``), so that a line's unknown fields follow
/// it when lines are inserted, removed or reordered. It retains those lines. A value: use it
/// from one thread at a time.
public struct PackageFileSnapshot: Sendable {
  /// The file's bytes, or `nil` if there was no file.
  public let bytes: [UInt8]?
  /// The file's JSON, parsed with the places of its values, if it is a valid document.
  let tree: JSONTree?
  /// For each content line of the package that came from the file (by identity), the element
  /// of `contents` it came from.
  /// (`edited` when the line is a copy of the element's line with a field changed.)
  private(set) var origins:
    [ObjectIdentifier: (content: PackageContent, element: JSONTree.Node, edited: Bool)]

  /// The snapshot of no file: a save then creates the file, and fails if another program
  /// created it meanwhile.
  public static let absent = PackageFileSnapshot(bytes: nil)

  /// The snapshot of a file that holds `bytes`.
  init(bytes: [UInt8]?) {
    self.bytes = bytes
    tree = bytes.flatMap { try? JSONText.utf8($0) }.flatMap(JSONTree.init)
    origins = [:]
  }

  /// Records that the package's content lines are, in order, the elements of the file's
  /// `contents`: call it right after applying the file's document to `package`, or saving it.
  public mutating func adoptContents(of package: Package) {
    origins = [:]
    guard let elements = tree?.root.member("contents")?.elements else { return }
    for (content, element) in zip(package.contents, elements) {
      origins[ObjectIdentifier(content)] = (content, element, false)
    }
  }

  /// Records that `new`, a copy of `old` with one field changed, replaced it: a save writes
  /// `new` where the file had `old`'s element, keeping that element's other fields.
  public mutating func contentReplaced(_ old: PackageContent, by new: PackageContent) {
    guard let origin = origins[ObjectIdentifier(old)] else { return }
    origins[ObjectIdentifier(new)] = (new, origin.element, true)
  }

  /// The element of the file that `content` came from, if any, and whether `content` is a
  /// copy with a field changed (otherwise it is the very line read from that element).
  func origin(of content: PackageContent) -> (element: JSONTree.Node, edited: Bool)? {
    origins[ObjectIdentifier(content)].map { ($0.element, $0.edited) }
  }

  /// What a save over this snapshot expects to find.
  var expectation: FileSystem.Expectation { bytes.map { .contents($0) } ?? .absent }
}
