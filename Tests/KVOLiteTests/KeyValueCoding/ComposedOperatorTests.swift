import Foundation
import KVOLite
import KVOLiteTestSupport
import Testing

/// A leaf of the nested fixtures: one number.
private final class Detail: KeyValueObservable, @unchecked Sendable {
  let observationRegistrar = ObservationRegistrar()
  static let observableKeys: ObservableKeys<Detail> = [
    .attribute("value", \.value), .attribute("tag", \.tag),
  ]
  let value: Int
  let tag: String?
  init(_ value: Int, tag: String? = nil) {
    self.value = value
    self.tag = tag
  }
}

/// An object with a to-many relationship of details.
private final class Holder: KeyValueObservable, @unchecked Sendable {
  let observationRegistrar = ObservationRegistrar()
  static let observableKeys: ObservableKeys<Holder> = [
    .toMany("detailArray", \.detailArray), .attribute("name", \.name),
  ]
  @Observed var detailArray: [Detail]
  let name: String
  init(_ name: String, _ details: [Detail]) {
    self.name = name
    detailArray = details
  }
}

/// The root: a to-many relationship of holders.
private final class Group: KeyValueObservable, @unchecked Sendable {
  let observationRegistrar = ObservationRegistrar()
  static let observableKeys: ObservableKeys<Group> = [.toMany("allObjects", \.allObjects)]
  @Observed var allObjects: [Holder] = []
}

@Suite("Key-value coding: operators that compose through the rest of the path")
struct ComposedOperatorTests {
  fileprivate static func group() -> (Group, [Detail]) {
    let shared = Detail(4, tag: "b")
    let group = Group()
    group.allObjects = [
      Holder("a", [Detail(2, tag: "a"), Detail(4, tag: "b"), Detail(6)]),
      Holder("b", [Detail(8, tag: "a"), shared]),
      Holder("c", [shared]),
    ]
    return (group, [shared])
  }

  @Test("an operator's right-hand path may go through a to-many relationship and another operator")
  func composed() throws {
    let (group, _) = Self.group()
    #expect(try group.value(forKeyPath: "allObjects.@sum.detailArray.@avg.value") as? Double == 14)
    #expect(try group.value(forKeyPath: "allObjects.@sum.detailArray.@count") as? Int == 6)
    #expect(try group.value(forKeyPath: "allObjects.@max.detailArray.@count") as? Int == 3)
    #expect(
      try group.value(forKeyPath: "allObjects.@avg.detailArray.@sum.value") as? Double == 28.0 / 3)
    #expect(try group.value(forKeyPath: "allObjects.@min.detailArray.@max.value") as? Int == 4)
    let names =
      try group.value(forKeyPath: "allObjects.@unionOfObjects.detailArray.@count") as? [Any]
    #expect(names?.compactMap { $0 as? Int } == [3, 2, 1])
    group.allObjects = []
    #expect(try group.value(forKeyPath: "allObjects.@sum.detailArray.@avg.value") as? Int == 0)
    #expect(try group.value(forKeyPath: "allObjects.@avg.detailArray.@count") == nil)
  }

  @Test("Foundation's example: four holders of three details, sums of averages and of counts")
  func foundationExample() throws {
    let group = Group()
    group.allObjects = (0..<4).map { index in Holder("\(index)", [Detail(1), Detail(3), Detail(5)])
    }
    #expect(try group.value(forKeyPath: "allObjects.@sum.detailArray.@avg.value") as? Double == 12)
    #expect(try group.value(forKeyPath: "allObjects.@count") as? Int == 4)
    #expect(try group.value(forKeyPath: "allObjects.@sum.detailArray.@count") as? Int == 12)
  }

  @Test(
    "@unionOfArrays joins the arrays in order; @distinctUnionOfArrays drops repeats (objects by identity)"
  )
  func unionOfArrays() throws {
    let (group, shared) = Self.group()
    let union = try #require(
      try group.value(forKeyPath: "allObjects.@unionOfArrays.detailArray") as? [Detail])
    #expect(union.map(\.value) == [2, 4, 6, 8, 4, 4])
    let distinct = try #require(
      try group.value(forKeyPath: "allObjects.@distinctUnionOfArrays.detailArray") as? [Detail])
    #expect(distinct.map(\.value) == [2, 4, 6, 8, 4])
    #expect(distinct.filter { $0 === shared[0] }.count == 1)
    let tags =
      try group.value(
        forKeyPath: "allObjects.@distinctUnionOfArrays.detailArray.@unionOfObjects.tag") as? [Any]
    #expect(tags?.compactMap { $0 as? String } == ["a", "b"])
    let allTags =
      try group.value(forKeyPath: "allObjects.@unionOfArrays.detailArray.@unionOfObjects.tag")
      as? [Any]
    #expect(allTags?.compactMap { $0 as? String } == ["a", "b", "a", "b", "b"])
    group.allObjects = []
    #expect(
      (try group.value(forKeyPath: "allObjects.@unionOfArrays.detailArray") as? [Any])?.isEmpty
        == true)
  }

  @Test("@unionOfArrays of values that are not arrays is a type error naming the path")
  func unionOfNonArrays() {
    let (group, _) = Self.group()
    #expect(
      throws: KeyValueError.typeMismatch(
        path: "allObjects.@unionOfArrays.name", expected: "arrays (to-many relationships)",
        actual: "String")
    ) { try group.value(forKeyPath: "allObjects.@unionOfArrays.name") }
  }

  @Test("errors in a right-hand path name the whole path")
  func errors() {
    let (group, _) = Self.group()
    #expect(
      throws: KeyValueError.unknownKey(
        key: "detailAray", type: "Holder", path: "allObjects.@sum", suggestion: "detailArray")
    ) { try group.value(forKeyPath: "allObjects.@sum.detailAray.@count") }
    #expect(
      throws: KeyValueError.unknownKey(
        key: "vale", type: "Detail", path: "allObjects.@sum.detailArray.@avg", suggestion: "value")
    ) { try group.value(forKeyPath: "allObjects.@sum.detailArray.@avg.vale") }
    #expect(
      throws: KeyValueError.unknownOperator(
        operator: "@bogus", path: "allObjects.@sum.detailArray.@bogus.value")
    ) {
      try group.value(forKeyPath: "allObjects.@sum.detailArray.@bogus.value")
    }
    #expect(throws: KeyValueError.throughToMany(key: "detailArray", type: "Holder")) {
      try group.value(forKeyPath: "allObjects.@sum.detailArray.value")
    }
    #expect(
      throws: KeyValueError.misplacedOperator(
        operator: "@avg", path: "allObjects.@sum.detailArray.@avg",
        reason: "it needs a key path after it, such as @avg.weight")
    ) { try group.value(forKeyPath: "allObjects.@sum.detailArray.@avg") }
  }
}
