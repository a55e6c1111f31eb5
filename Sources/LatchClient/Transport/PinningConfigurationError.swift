/// A pinning configuration that cannot be right.
public struct PinningConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Reason: Sendable, Equatable {
        case emptyHost
        case duplicateHost
        case noPins
        /// Not the base64 of a 32-byte SHA-256.
        case invalidPin(String)
    }

    public var reason: Reason
    public var host: String

    public init(_ reason: Reason, host: String) {
        self.reason = reason
        self.host = host
    }

    public var description: String {
        switch reason {
        case .emptyHost: "a pinned host name is empty"
        case .duplicateHost: "\(host) is pinned twice"
        case .noPins: "\(host) has no pins"
        case .invalidPin(let pin): "pin \"\(pin)\" of \(host) is not a base64 SHA-256"
        }
    }
}
