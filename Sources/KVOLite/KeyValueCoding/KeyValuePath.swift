/// A string key path resolved against declared keys for key-value coding: keys, indexes into
/// to-many relationships (`contents.0.title`) and collection operators (`contents.@count`).
///
/// Resolution uses only the type-level declarations, so every naming or syntax error is found
/// before any value is read or written.
struct KeyValuePath {
  enum Component {
    /// A declared key of the current object.
    case key(KeyStep)
    /// An element of the to-many relationship before it.
    case index(Int)
    /// A collection operator over the to-many relationship before it, with the key path it
    /// applies to each element (`nil` for `@count`). That path is a whole key path of the
    /// elements: it may go through to-many relationships and operators of its own
    /// (`groups.@sum.items.@avg.weight`).
    case collect(CollectionOperator, right: KeyValuePath?)
  }

  let text: String
  let components: [Component]

  /// The leading keys, for observing: every key must be a to-one relationship but the last,
  /// which may be followed by a collection operator (observed as a setting of the result).
  /// - Throws: ``KeyValueError/malformedKeyPath(path:reason:)`` for an index, which cannot
  ///   be observed.
  func observedSteps() throws(KeyValueError) -> (steps: [KeyStep], hasOperator: Bool) {
    var steps: [KeyStep] = []
    for component in components {
      switch component {
      case .key(let step): steps.append(step)
      case .collect: return (steps, true)
      case .index:
        throw .malformedKeyPath(
          path: text, reason: "an element of a to-many relationship cannot be observed by index")
      }
    }
    return (steps, false)
  }

  /// What the path has reached while resolving.
  private enum Position {
    case object(KeyTable)
    case collection(KeyStep, elements: KeyTable?)
    case element
    case value(KeyStep)
  }

  init(_ text: String, in table: KeyTable) throws(KeyValueError) {
    let parsed = try KeyPathString(text)
    self.text = text
    var components: [Component] = []
    var position = Position.object(table)
    var names = parsed.components[...]
    while let name = names.popFirst() {
      let consumed = parsed.components.count - names.count - 1
      switch position {
      case .object(let table):
        if name.hasPrefix("@") {
          guard CollectionOperator(rawValue: name) != nil else {
            throw .unknownOperator(operator: name, path: text)
          }
          throw .misplacedOperator(
            operator: name, path: text,
            reason: "a collection operator must follow a to-many relationship")
        }
        guard let index = table.indexByName[name] else {
          throw .unknownKey(
            key: name, type: table.typeName, path: parsed.prefix(consumed),
            suggestion: table.closestName(to: name))
        }
        let step = KeyStep(table: table, index: index)
        components.append(.key(step))
        switch step.entry.role {
        case .toOne: position = .object(step.entry.relatedKeys!())
        case .toMany: position = .collection(step, elements: step.entry.elementKeys?())
        case .derived where step.entry.relatedKeys != nil:
          position = .object(step.entry.relatedKeys!())
        case .attribute, .derived: position = .value(step)
        }
      case .collection(let key, let elements):
        if name.hasPrefix("@") {
          guard let op = CollectionOperator(rawValue: name) else {
            throw .unknownOperator(operator: name, path: text)
          }
          var right: KeyValuePath?
          if op.needsRightPath {
            guard !names.isEmpty else {
              throw .misplacedOperator(
                operator: name, path: text,
                reason: "it needs a key path after it, such as \(name).weight")
            }
            guard let elements else {
              throw .misplacedOperator(
                operator: name, path: text,
                reason: "the elements of \"\(key.entry.name)\" have no declared keys")
            }
            do {
              right = try KeyValuePath(names.joined(separator: "."), in: elements)
            } catch {
              throw error.restated(prefix: parsed.prefix(consumed + 1), whole: text)
            }
          }
          names = []
          components.append(.collect(op, right: right))
        } else if let index = Int(name), name.allSatisfy(\.isASCII), name.allSatisfy(\.isNumber) {
          components.append(.index(index))
          position = elements.map { .object($0) } ?? .element
        } else {
          throw .throughToMany(key: key.entry.name, type: key.table.typeName)
        }
      case .element:
        throw .malformedKeyPath(
          path: text, reason: "the elements at \"\(parsed.prefix(consumed))\" have no keys")
      case .value(let step):
        throw .notARelationship(
          key: step.entry.name, type: step.table.typeName, role: step.entry.role)
      }
    }
    self.components = components
  }

  /// The text of the first `count` components, for error messages.
  private func prefix(_ count: Int) -> String {
    text.split(separator: ".").prefix(count).joined(separator: ".")
  }

  /// Reads the value at the end of the path; `nil` where a relationship along it is `nil`.
  /// - Throws: ``KeyValueError/indexOutOfRange(index:count:path:)``, or an operator's error.
  func value(of root: AnyObject) throws(KeyValueError) -> Any? {
    try evaluate(components[...], from: root).map { KeyEntry.box($0.value) } ?? nil
  }

  /// The object whose key the last component names, for setting; with that key.
  func target(in root: AnyObject) throws(KeyValueError) -> (object: AnyObject, key: KeyStep) {
    guard case .key(let step) = components.last else {
      throw .malformedKeyPath(
        path: text, reason: "only a key can be set, not an element or an operator")
    }
    let before = components.dropLast()
    guard let (value, object) = try evaluate(before, from: root) else {
      let nilKey: String
      if case .key(let nilStep)? = before.last {
        nilKey = nilStep.entry.name
      } else {
        nilKey = prefix(before.count)
      }
      throw .nilIntermediate(path: text, key: nilKey)
    }
    // Resolution let a key follow only an object; the typed one saves a bridging cast.
    return (object ?? (value as AnyObject), step)
  }

  /// The value `components` lead to from `root`, and, when that value is the object the last
  /// component led to (a to-one relationship's, an element's), that object, typed: casting
  /// the `Any` to `AnyObject` is a bridging call that costs more than the whole walk.
  private func evaluate(_ components: ArraySlice<Component>, from root: AnyObject)
    throws(KeyValueError) -> (value: Any, object: AnyObject?)?
  {
    // The object the next key applies to, kept typed: casting `Any` to `AnyObject` at every
    // step is a bridging call.
    var object: AnyObject = root
    var current: Any = root
    // Whether `current` is `object`.
    var currentIsObject = true
    var skipCount = false
    var skipIndex = false
    for (offset, component) in zip(components.indices, components) {
      switch component {
      case .key(let step):
        if let related = step.entry.related {
          guard let next = related(object) else { return nil }
          object = next
          current = next
          currentIsObject = true
        } else if case .collect(.count, _)? = components[safe: offset + 1],
          let count = step.entry.elementCount
        {
          // `@count` needs the count only, not every element boxed.
          current = count(object)
          currentIsObject = false
          skipCount = true
        } else if case .index(let index)? = components[safe: offset + 1],
          let element = step.entry.element
        {
          // An index needs one element, not every element boxed.
          let (found, count) = element(object, index)
          guard let found else {
            throw .indexOutOfRange(
              index: index, count: count, path: prefix(offset - components.startIndex + 2))
          }
          current = found
          object = found as AnyObject
          currentIsObject = true
          skipIndex = true
        } else if let elements = step.entry.elements {
          current = elements(object)
          currentIsObject = false
        } else {
          current = step.entry.value(object)
          currentIsObject = false
        }
      case .index(let index):
        if skipIndex {
          skipIndex = false
          continue
        }
        let elements = current as! [Any]
        guard index < elements.count else {
          throw .indexOutOfRange(
            index: index, count: elements.count, path: prefix(offset - components.startIndex + 1))
        }
        current = elements[index]
        // Resolution let a key follow only elements that are observable objects.
        object = elements[index] as AnyObject
        currentIsObject = true
      case .collect(let op, let right):
        if skipCount {
          skipCount = false
          continue
        }
        let elements = current as! [Any]
        var values: [Any?] = elements
        if let right {
          values = []
          values.reserveCapacity(elements.count)
          for element in elements { values.append(try right.value(of: element as AnyObject)) }
        }
        guard let result = try op.apply(to: values, path: text) else { return nil }
        current = result
        currentIsObject = false
      }
    }
    return (current, currentIsObject ? object : nil)
  }
}

extension KeyValueError {
  /// An error of an operator's right-hand path, restated for the whole path `whole`, whose part
  /// up to and including the operator is `prefix`.
  fileprivate func restated(prefix: String, whole: String) -> KeyValueError {
    switch self {
    case .unknownKey(let key, let type, let path, let suggestion):
      .unknownKey(
        key: key, type: type, path: path.isEmpty ? prefix : prefix + "." + path,
        suggestion: suggestion)
    case .malformedKeyPath(_, let reason): .malformedKeyPath(path: whole, reason: reason)
    case .unknownOperator(let name, _): .unknownOperator(operator: name, path: whole)
    case .misplacedOperator(let name, _, let reason):
      .misplacedOperator(operator: name, path: whole, reason: reason)
    default: self
    }
  }
}

extension ArraySlice {
  /// The element at `index`, or `nil` outside the slice.
  fileprivate subscript(safe index: Int) -> Element? {
    indices.contains(index) ? self[index] : nil
  }
}
