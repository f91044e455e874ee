import Combine
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

// Code written for Apple's Combine that loads a URL. URLSession's publisher is a module of its
// own in KVOLite, which the module named Combine re-exports only under the trait
// URLSessionPublishers: this package enables it (Package.swift), and this file compiles
// unchanged. (A package that leaves the trait off links no FoundationNetworking.)

/// A book of the list the loader decodes.
struct Book: Decodable, Equatable {
  let title: String
}

/// The books at `url`, decoded from the JSON the server sends.
func books(at url: URL, session: URLSession = .shared) -> AnyPublisher<[Book], Error> {
  session.dataTaskPublisher(for: url)
    .map(\.data)
    .decode(type: [Book].self, decoder: JSONDecoder())
    .eraseToAnyPublisher()
}

/// The request a load of `url` makes, read back from the publisher (nothing is loaded: making a
/// publisher starts no task, subscribing does).
func requestedURL(_ url: URL) -> URL? {
  URLSession.shared.dataTaskPublisher(for: url).request.url
}
