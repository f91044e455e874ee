extension PackageFileSnapshot {
  /// The file's text with the package written into it: the bytes of every value the package
  /// changed are replaced, and every other byte stays (fields this version does not know, key
  /// order, spacing, number spellings). With nothing changed, the file's own bytes. `nil` if
  /// the snapshot is not a package document (then the document is written afresh).
  ///
  /// The contents are written element by element: a line that came from the file keeps its
  /// element (with the fields that changed replaced, for a line edited in place); a new line is
  /// written as the editor writes one.
  func text(of package: Package) -> [UInt8]? {
    guard let tree, let bytes, let recipient = tree.root.member("recipient"),
      let sender = tree.root.member("sender"), let contents = tree.root.member("contents"),
      let elements = contents.elements
    else { return nil }
    var edits: [(range: Range<Int>, text: [UInt8])] = []
    guard edit(recipient, as: package.recipient, into: &edits),
      edit(sender, as: package.sender, into: &edits)
    else { return nil }
    let unchanged =
      package.contents.count == elements.count
      && zip(package.contents, elements).allSatisfy { content, element in
        // The very line read from this element: lines are immutable, so nothing changed.
        guard let origin = origin(of: content) else { return false }
        return origin.isCurrent && origin.element.range == element.range && !origin.edited
      }
    if !unchanged {
      guard let array = arrayText(contents, elements, package.contents) else { return nil }
      edits.append((contents.range, array))
    }
    guard !edits.isEmpty else { return bytes }
    return Self.apply(edits, to: tree.text)
  }

  /// Adds the edits that make the object `node` hold `person`'s fields.
  private func edit(
    _ node: JSONTree.Node, as person: Person, into edits: inout [(range: Range<Int>, text: [UInt8])]
  ) -> Bool {
    guard let address = node.member("postalAddress") else { return false }
    let fields: [(JSONTree.Node?, String)] = [
      (node.member("firstName"), person.firstName), (node.member("lastName"), person.lastName),
      (address.member("street"), person.postalAddress.street),
      (address.member("city"), person.postalAddress.city),
      (address.member("postalCode"), person.postalAddress.postalCode),
      (address.member("country"), person.postalAddress.country),
    ]
    for (field, value) in fields {
      guard let field, let tree else { return false }
      if JSONTree.decodeString(tree.text(of: field)) != value {
        edits.append((field.range, JSONTree.encode(value)))
      }
    }
    return true
  }

  /// The edits that make the content element `element` hold `content`'s fields.
  private func edits(
    of element: JSONTree.Node, in text: ArraySlice<UInt8>, as content: PackageContent
  ) throws(MissingField) -> [(range: Range<Int>, text: [UInt8])] {
    guard let title = element.member("title"), let quantity = element.member("quantity"),
      let weight = element.member("weight")
    else { throw MissingField() }
    var edits: [(range: Range<Int>, text: [UInt8])] = []
    if JSONTree.decodeString(text[title.range]) != content.title {
      edits.append((title.range, JSONTree.encode(content.title)))
    }
    if JSONTree.decodeNumber(text[quantity.range]) != Double(content.quantity) {
      edits.append((quantity.range, JSONTree.encode(content.quantity)))
    }
    if JSONTree.decodeNumber(text[weight.range]).map({ ($0 * 1000).rounded() })
      != Double(content.grams)
    {
      edits.append((weight.range, JSONTree.encode(content.weight)))
    }
    return edits
  }

  private struct MissingField: Error {}

  /// The text of the `contents` array holding `contents`, laid out as the file's array is.
  private func arrayText(
    _ array: JSONTree.Node, _ elements: [JSONTree.Node], _ contents: [PackageContent]
  ) -> [UInt8]? {
    guard let tree else { return nil }
    let text = tree.text
    let open: [UInt8]
    let separator: [UInt8]
    let close: [UInt8]
    if let first = elements.first, let last = elements.last {
      open = Array(text[(array.range.lowerBound + 1)..<first.range.lowerBound])
      close = Array(text[last.range.upperBound..<(array.range.upperBound - 1)])
      separator =
        elements.count > 1
        ? Array(text[elements[0].range.upperBound..<elements[1].range.lowerBound]) : [44] + open
    } else {
      // An empty array: lay the elements out one level deeper than the line it is on.
      var start = array.range.lowerBound
      while start > 0, text[start - 1] != 0x0A { start -= 1 }
      let base = text[start...].prefix { $0 == 0x20 || $0 == 0x09 }
      open = [0x0A] + base + [0x20, 0x20]
      separator = [44] + open
      close = [0x0A] + base
    }
    let indentation = open.split(separator: 0x0A, omittingEmptySubsequences: false).last ?? []
    guard !contents.isEmpty else {
      let closing = close.split(separator: 0x0A, omittingEmptySubsequences: false).last ?? []
      return Array("[\n\n".utf8) + closing + [93]
    }
    var result: [UInt8] = [91] + open
    for (index, content) in contents.enumerated() {
      if index > 0 { result += separator }
      if let origin = origin(of: content), !origin.edited {
        result += origin.text[origin.element.range]
      } else if let origin = origin(of: content),
        let edits = try? edits(of: origin.element, in: origin.text, as: content)
      {
        let shifted = edits.map {
          (
            $0.range.lowerBound - origin.element.range.lowerBound..<$0.range.upperBound
              - origin.element.range.lowerBound, $0.text
          )
        }
        result += Self.apply(shifted, to: Array(origin.text[origin.element.range]))
      } else {
        let fresh = PackageDocument.Content(
          title: content.title, quantity: content.quantity, weight: content.weight)
        result += JSONTree.indented(JSONTree.encode(fresh), by: indentation)
      }
    }
    return result + close + [93]
  }

  /// `text` with each range replaced by its text (the ranges do not overlap).
  private static func apply(_ edits: [(range: Range<Int>, text: [UInt8])], to text: [UInt8])
    -> [UInt8]
  {
    var result: [UInt8] = []
    result.reserveCapacity(text.count)
    var position = 0
    for edit in edits.sorted(by: { $0.range.lowerBound < $1.range.lowerBound }) {
      result += text[position..<edit.range.lowerBound]
      result += edit.text
      position = edit.range.upperBound
    }
    return result + text[position...]
  }
}
