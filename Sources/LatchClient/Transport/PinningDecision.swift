/// What ``PinningPolicy`` says about one connection.
public enum PinningDecision: Sendable, Equatable {
    /// The chain holds a pinned key: go on.
    case allow
    /// The host is pinned and the chain holds none of its keys: refuse the connection.
    case reject(PinningFailure)
    /// The host is not pinned: the system's trust evaluation alone decides.
    case notPinned
}

/// Why a pinned connection was refused.
public enum PinningFailure: Sendable, Equatable, CustomStringConvertible {
    /// No certificate of the chain carries a pinned key.
    case noPinnedKey(host: String)
    /// The server presented no certificates.
    case emptyChain(host: String)
    /// No certificate of the chain could be read.
    case unreadableCertificate(host: String)

    public var description: String {
        switch self {
        case .noPinnedKey(let host): "no pinned public key in the certificate chain of \(host)"
        case .emptyChain(let host): "\(host) presented no certificates"
        case .unreadableCertificate(let host): "the certificates of \(host) could not be read"
        }
    }
}
