import Foundation
import KVOLiteCombine
import KVOLiteTestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// A tiny HTTP server on the loopback address, for tests of `dataTaskPublisher`: it answers
/// each connection with `respond(requestLine)` (a whole HTTP response, or `nil` to hold the
/// connection open without answering), on a thread of its own, until ``stop()``.
final class LoopbackHTTPServer: @unchecked Sendable {
  // @unchecked: `listener` is set once; `held` is behind `lock`.
  let port: UInt16
  private let listener: Int32
  private let lock = NSLock()
  private var held: [Int32] = []
  private let respond: @Sendable (String) -> String?
  /// Called with each request line as it arrives.
  private let onRequest: @Sendable (String) -> Void

  init(
    onRequest: @escaping @Sendable (String) -> Void = { _ in },
    respond: @escaping @Sendable (String) -> String?
  ) throws {
    self.respond = respond
    self.onRequest = onRequest
    // Close-on-exec: other tests spawn processes, which must not inherit the server.
    let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard listener >= 0 else { throw POSIXError(.EIO) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard bound == 0, listen(listener, 16) == 0 else { throw POSIXError(.EADDRINUSE) }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
    }
    port = UInt16(bigEndian: address.sin_port)
    self.listener = listener
    let thread = Thread { [self] in serve() }
    thread.start()
  }

  /// The URL of `path` on this server.
  func url(_ path: String) -> URL { URL(string: "http://127.0.0.1:\(port)\(path)")! }

  /// Accepts connections until ``stop()``; each is answered on a thread of its own, so that a
  /// client that connects without sending (or a held request) never delays the others.
  private func serve() {
    while true {
      let connection = accept(listener, nil, nil)
      guard connection >= 0 else { return }  // closed by stop()
      _ = fcntl(connection, F_SETFD, FD_CLOEXEC)
      Thread { [self] in answer(connection) }.start()
    }
  }

  /// Reads one request's head and answers it (or holds the connection).
  private func answer(_ connection: Int32) {
    var request = [UInt8]()
    var buffer = [UInt8](repeating: 0, count: 4096)
    while !request.suffix(4).elementsEqual(Array("\r\n\r\n".utf8)) {
      let count = read(connection, &buffer, buffer.count)
      guard count > 0 else { break }
      request += buffer[..<count]
    }
    let line =
      String(decoding: request, as: UTF8.self).components(separatedBy: "\r\n").first ?? ""
    onRequest(line)
    guard let response = respond(line) else {
      lock.withLock { held.append(connection) }
      return
    }
    let bytes = Array(response.utf8)
    var sent = 0
    while sent < bytes.count {
      let count = bytes.withUnsafeBytes {
        write(connection, $0.baseAddress! + sent, $0.count - sent)
      }
      guard count > 0 else { break }
      sent += count
    }
    // Half-close, so the client reads the whole response before the connection ends.
    shutdown(connection, Int32(SHUT_WR))
    close(connection)
  }

  /// Stops accepting (the port then refuses connections) and closes held connections.
  func stop() {
    shutdown(listener, Int32(SHUT_RDWR))
    close(listener)
    for connection in lock.withLock({ held }) { close(connection) }
  }

  /// An HTTP/1.1 response with `status` and `body`.
  static func response(_ status: String, _ body: String) -> String {
    "HTTP/1.1 \(status)\r\nContent-Length: \(body.utf8.count)\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n\(body)"
  }
}
