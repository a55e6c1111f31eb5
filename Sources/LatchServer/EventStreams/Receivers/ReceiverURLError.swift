/// Why a receiver URL was refused (issue 42 §3): a stable `code` and a `reason` an operator can act on.
/// Neither repeats the URL, whose path or query may hold a secret.
enum ReceiverURLError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Longer than `ReceiverURL.maximumLength`.
    case tooLong
    /// Not an absolute URL, or characters a URL cannot hold (spaces, controls, non-ASCII, a lone `%`).
    case badURL
    /// A scheme other than `https` and `http`.
    case unsupportedScheme
    /// `http` without `ReceiverAddressRules.allowsPlainHTTP`.
    case notHTTPS
    /// No host (`https:///path`).
    case missingHost
    /// A host that is neither a DNS name nor an IP address (percent-escapes, `_`-free rules, `0x7f.1`).
    case badHost
    /// A user name or password before the host (`user:pass@`).
    case userinfo
    /// A `#fragment`.
    case fragment
    /// A port that is not 1–65535.
    case badPort
    /// An IP literal, or `localhost`, of a kind the rules refuse.
    case refusedAddress(ReceiverAddressKind)

    /// A stable code (`not_https`, `userinfo`, `refused_address`, …).
    var code: String {
        switch self {
        case .tooLong: "too_long"
        case .badURL: "bad_url"
        case .unsupportedScheme: "unsupported_scheme"
        case .notHTTPS: "not_https"
        case .missingHost: "missing_host"
        case .badHost: "bad_host"
        case .userinfo: "userinfo"
        case .fragment: "fragment"
        case .badPort: "bad_port"
        case .refusedAddress: "refused_address"
        }
    }

    /// What is wrong, in a sentence.
    var reason: String {
        switch self {
        case .tooLong: "the URL is longer than \(ReceiverURL.maximumLength) characters"
        case .badURL: "not an absolute URL of ASCII characters (percent-encode the rest)"
        case .unsupportedScheme: "the URL must start with https://"
        case .notHTTPS:
            "the URL must be https:// (plain http:// only in development or with LATCH_EVENT_STREAMS_ALLOW_HTTP=1)"
        case .missingHost: "the URL has no host"
        case .badHost: "the host is neither a DNS name (ASCII, xn-- for others) nor an IP address"
        case .userinfo: "the URL must not carry a user name or password (user:pass@); send credentials in a header"
        case .fragment: "the URL must not have a #fragment"
        case .badPort: "the port must be a number from 1 to 65535"
        case .refusedAddress(let kind):
            "the host is \(kind.phrase); allowed only with LATCH_EVENT_STREAMS_ALLOW_PRIVATE=1"
        }
    }

    var description: String { "\(code): \(reason)" }
}
