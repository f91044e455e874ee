/// A string key path resolved against declared keys for key-value coding: keys, indexes into
/// to-many relationships (`contents.0.title`) and collection operators (`contents.@count`).
///
/// Resolution uses the type-level declarations, so every syntax error, and every naming error
/// but one, is found before any value is read or written. The exception: a key that the type
/// reached past a relationship does not declare may belong to a subclass of it, so it is looked
/// up when the path is used, on the class of the object there, as Foundation looks keys up
/// (``Component/rest(_:)``).
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
    /// The rest of the path, whose first key the type reached does not declare: it is looked
    /// up when the path is used, on the class of the object reached then, which may be a
    /// subclass of that type (a relationship typed as a superclass), as Foundation looks keys
    /// up. Always the last component.
    case rest(Rest)
  }

  /// The rest of a path that is looked up on the object's own class (``Component/rest(_:)``).
  /// A class, so that components stay one word and a reference wide.
  final class Rest: Sendable {
    /// The rest of the path, from the key the declared type lacks.
    let text: String
    /// The whole path before it, for errors.
    let before: String
    /// What resolving against the declared types threw: thrown when a `nil` relationship
    /// leaves no object whose class could have the key, and by observing, whose resolution
    /// uses the declared types.
    let error: KeyValueError

    init(text: String, before: String, error: KeyValueError) {
      self.text = text
      self.before = before
      self.error = error
    }
  }

  let text: String
  let components: [Component]

  /// The error of the declared types, where the path goes on as ``Component/rest(_:)``.
  var restError: KeyValueError? {
    guard case .rest(let rest)? = components.last else { return nil }
    return rest.error
  }

  /// The leading keys, for observing: every key must be a to-one relationship but the last,
  /// which may be followed by a collection operator (observed as a setting of the result).
  /// - Throws: ``KeyValueError/malformedKeyPath(path:reason:)`` for an index, which cannot
  ///   be observed.
  func observedSteps() throws(KeyValueError) -> (steps: [KeyStep], hasOperator: Bool) {
    var steps: [KeyStep] = []
    for component in components {
      switch component {
      case .key(let step): steps.append(step)
      case .collect(_, let right):
        // Observation resolves every key against the declared types, the right-hand path's too.
        if let error = right?.unresolved { throw error }
        return (steps, true)
      case .index:
        throw .malformedKeyPath(
          path: text, reason: "an element of a to-many relationship cannot be observed by index")
      case .rest(let rest):
        // Observation resolves every key against the declared types.
        throw rest.error
      }
    }
    return (steps, false)
  }

  /// The error of the first key, here or in an operator's right-hand path, that resolution left
  /// to the class of the object reached (``Component/rest(_:)``); `nil` if every key
  /// resolved against the declared types.
  var unresolved: KeyValueError? {
    restError
      ?? components.lazy.compactMap { component -> KeyValueError? in
        guard case .collect(_, let right?) = component else { return nil }
        return right.unresolved
      }.first
  }

  /// What the path has reached while resolving.
  private enum Position {
    case object(KeyTable)
    case collection(KeyStep, elements: KeyTable?)
    case element
    case value(KeyStep)
  }

  /// Resolves `text` against `table`, the table of the class of the object the path will be
  /// used on. With `base` (the text before an operator, for its right-hand path), `table` is
  /// the elements' declared type, and errors name the whole path.
  init(_ text: String, in table: KeyTable, base: String? = nil) throws(KeyValueError) {
    let parsed = try KeyPathString(text)
    self.text = text
    var components: [Component] = []
    var position = Position.object(table)
    var names = parsed.components[...]
    /// The whole path before the component `consumed` names, as errors name it.
    func before(_ consumed: Int) -> String {
      [base ?? "", parsed.prefix(consumed)].filter { !$0.isEmpty }.joined(separator: ".")
    }
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
          let suggestion = table.closestName(to: name)
          // The root's table is its own class's; past a relationship or among elements, the
          // table is the declared type's, and the object there may be of a subclass.
          guard consumed > 0 || base != nil else {
            throw .unknownKey(
              key: name, type: table.typeName, path: parsed.prefix(consumed),
              suggestion: suggestion)
          }
          let error = KeyValueError.unknownKey(
            key: name, type: table.typeName, path: before(consumed), suggestion: suggestion)
          components.append(
            .rest(
              Rest(
                text: ([name] + names).joined(separator: "."), before: before(consumed),
                error: error)))
          names = []
          continue
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
              right = try KeyValuePath(
                names.joined(separator: "."), in: elements, base: before(consumed + 1))
            } catch {
              throw error.restated(prefix: before(consumed + 1), whole: text)
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
          guard let next = related(object) else {
            // With no object, no class to look the rest up on: the declared type's error.
            if let restError { throw restError }
            return nil
          }
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
      case .rest(let rest):
        // Resolution let a key follow only an observable object.
        let owner = object as! any KeyValueObservable
        do {
          guard let value = try owner.value(forKeyPath: rest.text) else { return nil }
          current = value
        } catch {
          throw error.continued(after: rest.before)
        }
        currentIsObject = false
      }
    }
    return (current, currentIsObject ? object : nil)
  }

  /// Where the path goes on as ``Component/rest``: the object reached (of whatever class it is)
  /// and the rest of the path, with the whole path before it; `nil` if it does not.
  /// - Throws: what reading the path up to there throws, and ``restError`` if a relationship
  ///   along it is `nil`.
  func restOwner(in root: AnyObject) throws(KeyValueError) -> (
    owner: any KeyValueObservable, rest: String, before: String
  )? {
    guard case .rest(let rest)? = components.last else { return nil }
    guard let (value, object) = try evaluate(components.dropLast(), from: root) else {
      throw rest.error
    }
    return ((object ?? (value as AnyObject)) as! any KeyValueObservable, rest.text, rest.before)
  }
}

extension ArraySlice {
  /// The element at `index`, or `nil` outside the slice.
  fileprivate subscript(safe index: Int) -> Element? {
    indices.contains(index) ? self[index] : nil
  }
}
