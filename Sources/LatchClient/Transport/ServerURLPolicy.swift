import Foundation

/// Seed 004 §8.1 (issue 23): the SDK talks to latchd over HTTPS only. Plain `http` is allowed for a
/// loopback host (`localhost`, `127.0.0.0/8`, `::1`), where a development latchd runs and nothing crosses
/// a network.
///
///     ServerURLPolicy.allows(URL(string: "https://auth.example.com")!)  // true
///     ServerURLPolicy.allows(URL(string: "http://127.0.0.1:8080")!)      // true (loopback)
///     try ServerURLPolicy.check(URL(string: "http://auth.example.com")!) // throws InsecureServerURL
public enum ServerURLPolicy {
    /// Whether `url` may be a server URL: `https`, or `http` to a loopback host.
    public static func allows(_ url: URL) -> Bool {
        switch url.scheme?.lowercased() {
        case "https": return url.host != nil
        case "http": return url.host.map(isLoopback) ?? false
        default: return false
        }
    }

    /// Throws ``InsecureServerURL`` when `url` is not allowed.
    public static func check(_ url: URL) throws {
        guard allows(url) else { throw InsecureServerURL(url: url) }
    }

    /// `localhost`, an address in `127.0.0.0/8`, or `::1` (with or without brackets).
    static func isLoopback(_ host: String) -> Bool {
        let host = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        if host == "localhost" || host == "::1" { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.first == "127" && parts.allSatisfy { UInt8($0) != nil }
    }
}

/// A server URL that is neither `https` nor `http` to a loopback host (seed 004 §8.1): the SDK refuses
/// it at configuration (an assertion in debug builds) and sends no request to it.
public struct InsecureServerURL: Error, Sendable, Equatable, CustomStringConvertible {
    /// The refused URL.
    public var url: URL

    public init(url: URL) { self.url = url }

    public var description: String {
        "Latch needs an https:// server URL (http:// only for localhost, 127.0.0.1 or ::1); got \(url.absoluteString)"
    }
}
