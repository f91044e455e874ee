import Testing

@testable import KVOLiteStress

/// Every stress scenario, small: in the debug build and under the thread sanitizer (CI runs
/// the whole suite with it). CI also runs the scenarios at full size in a release build
/// (`kvolite-stress`), where the optimizer moves what these builds keep in place. Serialized:
/// the scenarios count the live objects of their models, which are shared.
@Suite("Stress scenarios, small", .serialized)
struct StressScenarioTests {
  static let iterations = 2_000

  @Test("every scenario passes", arguments: StressScenarios.all.map(\.name))
  func scenario(named name: String) throws {
    let scenario = try #require(StressScenarios.all.first { $0.name == name })
    let report = scenario.run(iterations: Self.iterations)
    #expect(report.failures == [])
  }
}
