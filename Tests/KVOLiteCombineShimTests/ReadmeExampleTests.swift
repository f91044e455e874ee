import Foundation
import KVOLiteCombineShim
import Testing

// The README's view-model example, compiled and run: Combine code with only
// `import KVOLiteCombineShim`, which is Apple's Combine on Apple's platforms and KVOLite's
// elsewhere.

struct Title: Equatable, Sendable {
  let title: String
}

enum LoadError: Error, Equatable {
  case offline
}

/// The README's example view model.
final class SearchViewModel: ObservableObject {
  @Published var query = ""
  @Published private(set) var titles: [Title] = []
  @Published private(set) var status = ""

  init(search: @escaping (String) -> AnyPublisher<[Title], LoadError>) {
    $query
      .dropFirst()
      .removeDuplicates()
      .map { query in
        Deferred { search(query) }  // a new search per attempt
          .retry(1)
          .catch { _ in Just([]) }
      }
      .switchToLatest()
      .assign(to: &$titles)
    $query.combineLatest($titles) { query, titles in
      query.isEmpty ? "type to search" : "\(titles.count) result(s) for \(query)"
    }
    .assign(to: &$status)
  }
}

@Suite("README example")
struct ReadmeExampleTests {
  @Test("the view model searches, retries once, falls back to nothing, and keeps its status line")
  func searchViewModel() {
    var calls: [String] = []
    let viewModel = SearchViewModel { query in
      calls.append(query)
      return Future<[Title], LoadError> { promise in
        promise(
          query == "down"
            ? .failure(.offline)
            : .success([Title(title: "\(query) 1"), Title(title: "\(query) 2")]))
      }.eraseToAnyPublisher()
    }
    #expect(viewModel.status == "type to search")
    viewModel.query = "swift"
    #expect(viewModel.titles == [Title(title: "swift 1"), Title(title: "swift 2")])
    #expect(viewModel.status == "2 result(s) for swift")
    viewModel.query = "swift"
    viewModel.query = "down"
    #expect(viewModel.titles == [] && viewModel.status == "0 result(s) for down")
    #expect(calls == ["swift", "down", "down"])
  }
}

/// The README's "Adding KVOLite to a package" shows the manifest lines that
/// `Tests/CombinePort`, the package CI builds and runs, uses.
@Suite("README: the Combine product")
struct ReadmeCombineProductTests {
  @Test("the README's dependency on the Combine product is the one Tests/CombinePort builds with")
  func manifestLines() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
    let fixture = try String(
      contentsOf: root.appendingPathComponent("Tests/CombinePort/Package.swift"), encoding: .utf8)
    let line = #"dependencies: [.product(name: "Combine", package: "KVOLite")]"#
    #expect(readme.contains(line))
    #expect(fixture.contains(line))
  }
}
