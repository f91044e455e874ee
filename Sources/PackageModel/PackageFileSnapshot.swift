/// A package file as the editor last read or wrote it: its bytes, or that there was no file.
///
/// A save compares the file with its snapshot first (see
/// ``PackageFile/save(_:to:naming:replacing:keeping:)``), so that it never silently overwrites
/// another program's change; and a save keeps, from the snapshot, every field of the file that
/// this version does not know, byte for byte where nothing was edited.
///
/// The snapshot knows which content line of the package came from which element of the file
/// (``adoptContents(of:keeping:)``, ``contentReplaced(_:by:)``), so that a line's unknown fields follow
/// it when lines are inserted, removed or reordered. It retains those lines. A value: use it
/// from one thread at a time.
public struct PackageFileSnapshot: Sendable {
  /// The file's bytes, or `nil` if there was no file.
  public let bytes: [UInt8]?
  /// The file's JSON, parsed with the places of its values, if it is a valid document.
  let tree: JSONTree?
  /// Where a content line came from: an element of `contents` in this file, or in a file the
  /// editor read or wrote before (a line removed, saved, then brought back by undo).
  struct Origin: Sendable {
    /// The line (retained, so that its identity is never reused while it is recorded).
    let content: PackageContent
    /// The text the element is in (its indexes are the element's own) and the element.
    let text: ArraySlice<UInt8>
    let element: JSONTree.Node
    /// Whether the line is a copy of the element's line with a field changed.
    let edited: Bool
    /// Whether the element is this snapshot's (not a former file's).
    let isCurrent: Bool
  }

  /// The origin of each content line that came from a file, by identity.
  private(set) var origins: [ObjectIdentifier: Origin]

  /// At most this many origins of lines that are no longer in the package are kept.
  private static let formerOriginLimit = 10_000

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
  /// Lines of `previous` (the file saved over) that are not in the package keep their origin,
  /// so that one brought back by undo is written as it was.
  public mutating func adoptContents(
    of package: Package, keeping previous: PackageFileSnapshot? = nil
  ) {
    origins = [:]
    if let tree, let elements = tree.root.member("contents")?.elements {
      for (content, element) in zip(package.contents, elements) {
        origins[ObjectIdentifier(content)] = Origin(
          content: content, text: tree.text[...], element: element, edited: false,
          isCurrent: true)
      }
    }
    guard let previous else { return }
    var kept = 0
    for (key, origin) in previous.origins where origins[key] == nil {
      guard kept < Self.formerOriginLimit else { break }
      origins[key] = Origin(
        content: origin.content, text: origin.text, element: origin.element,
        edited: origin.edited, isCurrent: false)
      kept += 1
    }
  }

  /// Records that `new`, a copy of `old` with one field changed, replaced it: a save writes
  /// `new` where the file had `old`'s element, keeping that element's other fields.
  public mutating func contentReplaced(_ old: PackageContent, by new: PackageContent) {
    guard let origin = origins[ObjectIdentifier(old)] else { return }
    origins[ObjectIdentifier(new)] = Origin(
      content: new, text: origin.text, element: origin.element, edited: true,
      isCurrent: origin.isCurrent)
  }

  /// Where `content` came from, if it came from a file.
  func origin(of content: PackageContent) -> Origin? {
    origins[ObjectIdentifier(content)]
  }

  /// What a save over this snapshot expects to find.
  var expectation: FileSystem.Expectation { bytes.map { .contents($0) } ?? .absent }
}
