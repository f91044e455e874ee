/// Reads which properties a key path goes through, so that two key paths with different roots
/// can be compared: `\Employee.firstName` and `\Person.firstName` name the same property when
/// `Employee` inherits `firstName` from `Person`, yet Swift's `==` says they differ (their
/// root types do).
///
/// A key path object holds a buffer of components whose layout is part of Swift's ABI (the
/// runtime's `KeyPath.h`): a 32-bit buffer header (its size in the low 24 bits), then, from
/// the next pointer-aligned address, each component: a 32-bit header (its kind in bits
/// 24...30), its body, and, unless it is the last, the metadata of its value type at the next
/// pointer-aligned address. A computed component's body is the property's identity, its getter
/// and, if it is settable, its setter; the identity is the same whichever root the key path
/// starts from, the getter is not (each root has its own thunk). So two key paths go through
/// the same properties when their components have the same kinds, identities and value types.
///
/// A computed component made in generic code carries arguments (the generic parameters it was
/// instantiated with): two words (their size, and the functions that copy and compare them),
/// then the arguments, which are compared as they are. Only the kinds this reader knows
/// (stored, computed, optional) are read; a key path with any other component (an unresolved
/// external one) gives `nil`, and callers treat it as not comparable.
enum KeyPathComponents {
  /// One component's identity: its kind and what distinguishes it among components of its kind.
  ///
  /// Two identities are equal when their kinds, identities and value types are, and their
  /// arguments too where both have them: a key path made in generic code carries the generic
  /// parameters that the same key path made in concrete code does not (the object the key
  /// paths are read on has one type, which fixes them).
  struct Identity: Equatable {
    static func == (a: Identity, b: Identity) -> Bool {
      a.kind == b.kind && a.id == b.id && a.valueType == b.valueType
        && (a.arguments.isEmpty || b.arguments.isEmpty || a.arguments == b.arguments)
    }

    let kind: UInt32
    /// For a stored component its offset, for a computed one its property's identity, for an
    /// optional one which of chain, wrap and force it is.
    let id: UInt
    /// A computed component's arguments, word by word (generic parameters, subscript
    /// indexes); empty for the others.
    let arguments: [UInt]
    /// The value type the component produces (`nil` for the last, whose type is the key
    /// path's value type).
    let valueType: ObjectIdentifier?
  }

  private static let discriminatorShift: UInt32 = 24
  private static let discriminatorMask: UInt32 = 0x7F00_0000
  private static let payloadMask: UInt32 = 0x00FF_FFFF
  private static let structTag: UInt32 = 1
  private static let computedTag: UInt32 = 2
  private static let classTag: UInt32 = 3
  private static let optionalTag: UInt32 = 4
  private static let storedOffsetMask: UInt32 = 0x007F_FFFF
  private static let outOfLineOffset: UInt32 = 0x007F_FFFF
  private static let maximumInlineOffset: UInt32 = 0x007F_FFFC
  private static let computedSettable: UInt32 = 0x0040_0000
  private static let computedHasArguments: UInt32 = 0x0008_0000
  private static let computedIDKindMask: UInt32 = 0x0030_0000
  private static let computedFromExternalWithArguments: UInt32 = 0x0000_0010

  /// The identities of `keyPath`'s components, in order, or `nil` if it has a component this
  /// reader does not know.
  static func identities(of keyPath: AnyKeyPath) -> [Identity]? {
    withExtendedLifetime(keyPath) {
      let object = UnsafeRawPointer(Unmanaged.passUnretained(keyPath).toOpaque())
      // The instance: the object header, then one stored property (the key-value coding
      // string), then the buffer, tail-allocated.
      let base = object + MemoryLayout<Int>.size * 3
      let size = Int(base.loadUnaligned(as: UInt32.self) & payloadMask)
      var cursor = base + MemoryLayout<Int>.size
      let end = cursor + size
      var found: [Identity] = []
      while cursor < end {
        let header = cursor.loadUnaligned(as: UInt32.self)
        cursor += 4
        let kind = (header & discriminatorMask) >> discriminatorShift
        let id: UInt
        var arguments: [UInt] = []
        switch kind {
        case structTag, classTag:
          let payload = header & storedOffsetMask
          if payload == outOfLineOffset {
            id = UInt(cursor.loadUnaligned(as: UInt32.self))
            cursor += 4
          } else {
            guard payload <= maximumInlineOffset else { return nil }
            id = UInt(payload)
          }
        case computedTag:
          guard header & computedFromExternalWithArguments == 0 else { return nil }
          cursor = align(cursor)
          // The identity, distinguished by how it identifies the property.
          id = cursor.loadUnaligned(as: UInt.self) ^ UInt(header & computedIDKindMask)
          cursor += MemoryLayout<Int>.size * (header & computedSettable != 0 ? 3 : 2)
          if header & computedHasArguments != 0 {
            let size = Int(cursor.loadUnaligned(as: UInt.self))
            cursor += MemoryLayout<Int>.size * 2
            guard size >= 0, size % MemoryLayout<UInt>.size == 0, cursor + size <= end else {
              return nil
            }
            arguments = (0..<size / MemoryLayout<UInt>.size).map {
              (cursor + $0 * MemoryLayout<UInt>.size).loadUnaligned(as: UInt.self)
            }
            cursor += size
          }
        case optionalTag:
          id = UInt(header & payloadMask)
        default:
          return nil
        }
        guard cursor <= end else { return nil }
        var valueType: ObjectIdentifier?
        if cursor < end {
          cursor = align(cursor)
          guard cursor + MemoryLayout<Int>.size <= end else { return nil }
          valueType = ObjectIdentifier(cursor.loadUnaligned(as: Any.Type.self))
          cursor += MemoryLayout<Int>.size
        }
        found.append(Identity(kind: kind, id: id, arguments: arguments, valueType: valueType))
      }
      return found.isEmpty ? nil : found
    }
  }

  /// Whether `a` and `b` go through the same properties, whatever their roots, and end in the
  /// same value type. `false` when either cannot be read.
  static func samePath(_ a: AnyKeyPath, _ b: AnyKeyPath) -> Bool {
    guard type(of: a).valueType == type(of: b).valueType,
      let first = identities(of: a), let second = identities(of: b)
    else { return false }
    return first == second
  }

  private static func align(_ pointer: UnsafeRawPointer) -> UnsafeRawPointer {
    pointer.alignedUp(toMultipleOf: MemoryLayout<Int>.alignment)
  }
}
