/// The stored fields of a class, as the Swift runtime describes them to `Mirror`: each field's
/// name, offset in its objects and type, superclasses' fields first.
///
/// The standard library lists fields for its own reflection through three entry points that the
/// runtime exports on every platform (`Mirror` and `dump` are built on them); the listing
/// function it wraps them in (`_forEachField`) is SPI, which Apple's SDKs do not ship. These are
/// the entry points themselves, declared by their symbol names with the signatures the runtime
/// gives them.
enum StoredFields {
  /// One stored field.
  struct Field {
    /// The field's name as declared (a property wrapper's storage: `_` and the property's name).
    var name: String
    /// Where the field lies, in bytes from the start of an object.
    var offset: Int
    /// The field's type.
    var type: Any.Type
    /// Whether it is declared `var` (not `let`).
    var isVariable = false
  }

  /// The stored fields of `type`, a class, and of its superclasses, in declaration order
  /// (superclasses first). Empty when the runtime has no field records for it: a module built
  /// with reflection metadata stripped.
  static func of(_ type: AnyClass) -> [Field] {
    let count = runtimeFieldCount(type)
    var fields: [Field] = []
    fields.reserveCapacity(count)
    for index in 0..<count {
      var record = FieldRecord()
      let fieldType = runtimeFieldType(type, index: index, record: &record)
      defer { record.freeName?(record.name) }
      fields.append(
        Field(
          name: record.name.map { String(cString: $0) } ?? "",
          offset: runtimeFieldOffset(type, index: index), type: fieldType,
          isVariable: record.isVar))
    }
    return fields
  }

  /// What the runtime tells of a field besides its type: its name, and the function that frees
  /// that name (when the runtime made it). The layout of the runtime's
  /// `_FieldReflectionMetadata` (`SwiftShims/Reflection.h`).
  struct FieldRecord {
    var name: UnsafePointer<CChar>? = nil
    var freeName: (@convention(c) (UnsafePointer<CChar>?) -> Void)? = nil
    var isStrong = false
    var isVar = false
  }
}

/// The number of stored fields of `type`, its superclasses' included.
@_silgen_name("swift_reflectionMirror_recursiveCount")
private func runtimeFieldCount(_ type: Any.Type) -> Int

/// The type of field `index` of `type`; fills in `record`.
@_silgen_name("swift_reflectionMirror_recursiveChildMetadata")
private func runtimeFieldType(
  _ type: Any.Type, index: Int, record: UnsafeMutablePointer<StoredFields.FieldRecord>
) -> Any.Type

/// The offset in bytes of field `index` of `type`.
@_silgen_name("swift_reflectionMirror_recursiveChildOffset")
private func runtimeFieldOffset(_ type: Any.Type, index: Int) -> Int
