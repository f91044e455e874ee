import Foundation
import KVOLiteCombine
import KVOLiteCombineFoundation
import KVOLiteTestSupport
import Testing

/// `Subscribers.Demand` and `Subscribers.Completion` as Combine defines them.
@Suite("Combine compatibility: Demand and Completion")
struct DemandTests {
  typealias Demand = Subscribers.Demand

  @Test("arithmetic saturates: unlimited absorbs, overflow and negative results clamp")
  func arithmetic() {
    #expect(Demand.max(42) + .unlimited == .unlimited)
    #expect(Demand.max(100) + .max(42) == .max(142))
    #expect(Demand.max(81) + 42 == .max(123))
    #expect(Demand.unlimited + Int.min == .unlimited)
    #expect(Demand.max(Int.max) + 10 == .unlimited)
    #expect(Demand.max(Int.max) + .max(1) == .unlimited)
    #expect(Demand.max(5) + (-10) == .none)
    #expect(Demand.max(1) + Int.min == .none)
    #expect(Demand.max(42) - .unlimited == .none)
    #expect(Demand.unlimited - .unlimited == .unlimited)
    #expect(Demand.unlimited - .max(42) == .unlimited)
    #expect(Demand.max(100) - .max(42) == .max(58))
    #expect(Demand.max(1) - .max(5) == .none)
    #expect(Demand.max(81) - 42 == .max(39))
    #expect(Demand.unlimited - Int.max == .unlimited)
    #expect(Demand.max(Int.max) - (-1) == .none)
    #expect(Demand.max(0) - Int.min == .none)
    #expect(Demand.max(3) - (-2) == .max(5))
    #expect(Demand.max(42) * 2 == .max(84))
    #expect(Demand.unlimited * Int.max == .unlimited)
    #expect(Demand.max(Int.max) * 2 == .unlimited)
    #expect(Demand.max(5) * -1 == .none)
    var demand = Demand.none
    demand += .max(1)
    demand += 21
    #expect(demand == .max(22))
    demand -= 2
    demand *= 3
    #expect(demand == .max(60))
    demand -= .unlimited
    #expect(demand == .none)
  }

  @Test("comparisons with integers on either side; unlimited equals no integer and exceeds all")
  func comparisons() {
    #expect(Demand.unlimited > Int.max && Demand.unlimited >= 0 && !(Demand.unlimited < 1))
    #expect(
      !(Demand.unlimited <= Int.max) && Demand.unlimited != Int.max && !(Demand.unlimited == 0))
    #expect(Int.max < Demand.unlimited && Int.max <= Demand.unlimited && !(0 > Demand.unlimited))
    #expect(Demand.max(3) == 3 && 3 == Demand.max(3) && Demand.max(3) != 4 && 4 != Demand.max(3))
    #expect(Demand.max(3) < 4 && Demand.max(3) <= 3 && Demand.max(3) > 2 && Demand.max(3) >= 3)
    #expect(2 < Demand.max(3) && 3 <= Demand.max(3) && 4 > Demand.max(3) && 3 >= Demand.max(3))
    #expect(Demand.max(1) < .unlimited && !(Demand.unlimited < .unlimited) && Demand.none < .max(1))
    #expect(Demand.none.max == 0 && Demand.unlimited.max == nil)
    #expect(Demand.none.description == "max(0)" && Demand.unlimited.description == "unlimited")
  }

  @Test(
    "Codable as Combine: one unsigned integer, Int.max + 1 for unlimited; any count above Int.max decodes as unlimited; bad numbers are errors"
  )
  func coding() throws {
    struct Wrapper: Codable, Equatable { let value: Demand }
    let encoder = JSONEncoder()
    #expect(
      String(decoding: try encoder.encode(Wrapper(value: .max(42))), as: UTF8.self)
        == #"{"value":42}"#)
    let unlimited = #"{"value":\#(UInt(Int.max) + 1)}"#
    #expect(
      String(decoding: try encoder.encode(Wrapper(value: .unlimited)), as: UTF8.self) == unlimited)
    let decoder = JSONDecoder()
    #expect(
      try decoder.decode(Wrapper.self, from: Data(unlimited.utf8)) == Wrapper(value: .unlimited))
    #expect(
      try decoder.decode(Wrapper.self, from: Data(#"{"value":0}"#.utf8)) == Wrapper(value: .none))
    for above in [UInt(Int.max) + 2, UInt.max] {
      #expect(
        try decoder.decode(Wrapper.self, from: Data(#"{"value":\#(above)}"#.utf8))
          == Wrapper(value: .unlimited))
    }
    for bad in [#"{"value":-1}"#, #"{"value":1.5}"#] {
      #expect(throws: DecodingError.self) { try decoder.decode(Wrapper.self, from: Data(bad.utf8)) }
    }
  }

  @Test("Completion is Codable as Combine encodes it")
  func completionCoding() throws {
    typealias Completion = Subscribers.Completion<CodableError>
    struct CodableError: Error, Codable, Equatable { let description: String }
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    #expect(
      String(decoding: try encoder.encode(Completion.finished), as: UTF8.self)
        == #"{"success":true}"#)
    let failure = #"{"error":{"description":"oops"},"success":false}"#
    #expect(
      String(
        decoding: try encoder.encode(Completion.failure(.init(description: "oops"))), as: UTF8.self)
        == failure)
    let decoder = JSONDecoder()
    #expect(
      try decoder.decode(Completion.self, from: Data(failure.utf8))
        == .failure(.init(description: "oops")))
    #expect(
      try decoder.decode(
        Completion.self, from: Data(#"{"error":{"description":"x"},"success":true}"#.utf8))
        == .finished)
    #expect(throws: DecodingError.self) {
      try decoder.decode(Completion.self, from: Data(#"{"success":false}"#.utf8))
    }
  }

  @Test("a negative demand traps, as in Combine")
  func negative() async {
    await #expect(processExitsWith: .failure) { _ = Subscribers.Demand.max(-1) }
  }
}
