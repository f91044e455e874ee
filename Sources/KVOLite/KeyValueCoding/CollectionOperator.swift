import Foundation

/// A collection operator of key-value coding: `contents.@count`, `contents.@sum.weight`.
///
/// The operator follows a to-many relationship; all but ``count`` take a key path to the right,
/// applied to every element. Edge cases are Apple's: `@count` ignores a right-hand path, `@sum`
/// of no values is `0`, `@avg`, `@min` and `@max` of no values are `nil`, and `nil` values are
/// skipped by `@min`, `@max` and the unions (and count as zero for `@sum` and `@avg`).
///
/// Numbers keep their kind: a sum of `Int`s is an `Int` (a `Double` if it would overflow), of
/// `Decimal`s a `Decimal`, otherwise a `Double`; averages are `Double` (`Decimal` for
/// decimals). `@min`/`@max` compare numbers by value and strings lexicographically.
public enum CollectionOperator: String, CaseIterable, Sendable {
  /// The number of elements, an `Int`; a key path to its right is ignored.
  case count = "@count"
  /// The sum of the right-hand values: `0` for no values, `nil` values counted as zero.
  case sum = "@sum"
  /// The mean of the right-hand values, a `Double` (a `Decimal` for decimals); `nil` for no
  /// elements, `nil` values counted as zero.
  case avg = "@avg"
  /// The least right-hand value, skipping `nil`s; `nil` for no values.
  case min = "@min"
  /// The greatest right-hand value, skipping `nil`s; `nil` for no values.
  case max = "@max"
  /// The right-hand value of every element, in order, skipping `nil`s.
  case unionOfObjects = "@unionOfObjects"
  /// The distinct right-hand values of the elements, in first-seen order, skipping `nil`s.
  case distinctUnionOfObjects = "@distinctUnionOfObjects"
  /// The elements of every array the right-hand path gives, one after the other.
  case unionOfArrays = "@unionOfArrays"
  /// The distinct elements of every array the right-hand path gives, in first-seen order.
  case distinctUnionOfArrays = "@distinctUnionOfArrays"

  /// Whether the operator needs a key path to its right.
  var needsRightPath: Bool { self != .count }

  /// Applies the operator to the right-hand values of a collection's elements.
  /// - Throws: ``KeyValueError/typeMismatch(path:expected:actual:)`` when the values are not
  ///   numbers (for `@sum`/`@avg`) or not comparable (for `@min`/`@max`).
  func apply(to values: [Any?], path: String) throws(KeyValueError) -> Any? {
    switch self {
    case .count:
      return values.count
    case .sum:
      return try Number.sum(values.compactMap { $0 }, path: path).value
    case .avg:
      guard !values.isEmpty else { return nil }
      return try Number.sum(values.compactMap { $0 }, path: path).divided(by: values.count)
    case .min, .max:
      let present = values.compactMap { $0 }
      guard var best = present.first else { return nil }
      for value in present.dropFirst() {
        let ordered = try Self.compare(value, best, path: path)
        if self == .min ? ordered == .orderedAscending : ordered == .orderedDescending {
          best = value
        }
      }
      return best
    case .unionOfObjects:
      return values.compactMap { $0 }
    case .distinctUnionOfObjects:
      return Self.distinct(values.compactMap { $0 })
    case .unionOfArrays, .distinctUnionOfArrays:
      var union: [Any] = []
      for value in values {
        guard let value else { continue }
        guard let array = value as? [Any] else {
          throw .typeMismatch(
            path: path, expected: "arrays (to-many relationships)",
            actual: typeName(type(of: value)))
        }
        union += array.compactMap { KeyEntry.box($0) }
      }
      return self == .unionOfArrays ? union : Self.distinct(union)
    }
  }

  /// `values` without repeats, in first-seen order: compared as `AnyHashable` where they are
  /// hashable (objects by identity), otherwise by their descriptions.
  private static func distinct(_ values: [Any]) -> [Any] {
    var seen = Set<AnyHashable>()
    var seenDescriptions = Set<String>()
    return values.filter { value in
      if let hashable = value as? AnyHashable { return seen.insert(hashable).inserted }
      if type(of: value) is AnyClass {
        return seen.insert(ObjectIdentifier(value as AnyObject)).inserted
      }
      return seenDescriptions.insert(String(reflecting: value)).inserted
    }
  }

  private static func compare(_ a: Any, _ b: Any, path: String) throws(KeyValueError)
    -> ComparisonResult
  {
    if let a = a as? String, let b = b as? String {
      return a < b ? .orderedAscending : a > b ? .orderedDescending : .orderedSame
    }
    if let a = Number(a), let b = Number(b) {
      let (x, y) = (a.double, b.double)
      return x < y ? .orderedAscending : x > y ? .orderedDescending : .orderedSame
    }
    throw .typeMismatch(
      path: path, expected: "comparable values (numbers or strings)",
      actual: "\(typeName(type(of: a))) and \(typeName(type(of: b)))")
  }
}

/// A number of any of the kinds key-value coding meets, for the arithmetic operators.
enum Number {
  case int(Int)
  case double(Double)
  case decimal(Decimal)

  init?(_ value: Any) {
    // The usual element types first, by their exact type: a failed cast to `Int` or to
    // `any BinaryInteger` costs more than the sum itself (an operator observation computes its
    // value over every element on each change).
    let type = Swift.type(of: value)
    if type == Double.self {
      self = .double(value as! Double)
      return
    }
    if type == Int.self {
      self = .int(value as! Int)
      return
    }
    switch value {
    case let value as Int: self = .int(value)
    case let value as any BinaryInteger:
      guard let int = Int(exactly: value) else { return nil }
      self = .int(int)
    case let value as Double: self = .double(value)
    case let value as Float: self = .double(Double(value))
    case let value as Decimal: self = .decimal(value)
    default: return nil
    }
  }

  var double: Double {
    switch self {
    case .int(let value): Double(value)
    case .double(let value): value
    case .decimal(let value): NSDecimalNumber(decimal: value).doubleValue
    }
  }

  var decimal: Decimal {
    switch self {
    case .int(let value): Decimal(value)
    case .double(let value): Decimal(value)
    case .decimal(let value): value
    }
  }

  var value: Any {
    switch self {
    case .int(let value): value
    case .double(let value): value
    case .decimal(let value): value
    }
  }

  static func sum(_ values: [Any], path: String) throws(KeyValueError) -> Number {
    var total = Number.int(0)
    for value in values {
      guard let number = Number(value) else {
        throw .typeMismatch(path: path, expected: "numbers", actual: typeName(type(of: value)))
      }
      total = total.adding(number)
    }
    return total
  }

  func adding(_ other: Number) -> Number {
    switch (self, other) {
    case (.int(let a), .int(let b)):
      let (sum, overflow) = a.addingReportingOverflow(b)
      return overflow ? .double(Double(a) + Double(b)) : .int(sum)
    case (.decimal, _), (_, .decimal):
      return .decimal(decimal + other.decimal)
    default:
      return .double(double + other.double)
    }
  }

  func divided(by count: Int) -> Any {
    if case .decimal(let value) = self { return value / Decimal(count) }
    return double / Double(count)
  }
}
