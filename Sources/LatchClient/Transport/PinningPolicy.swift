import Crypto
import Foundation

/// Certificate pinning (C10): which public keys each pinned host may present.
///
/// A pin is the base64 SHA-256 of a certificate's DER SubjectPublicKeyInfo, the form HPKP, OkHttp and
/// TrustKit use: `openssl x509 -in cert.pem -pubkey -noout | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | base64`.
/// Pin the server's key and at least one backup key (a key you hold offline, or your CA's), or a key
/// rotation will lock the app out.
///
/// The policy only decides; the Apple transport enforces it after the system's own trust evaluation
/// (pinning narrows what is trusted, it never widens it).
///
///     let policy = try PinningPolicy([
///         .init(host: "auth.example.com", pins: ["r/mIkG3eEpVdm+u/ko/cwxzOMo1bk4TyHIlByibiA5E=",
///                                             "YLh1dUR9y6Kja30RrAn7JKnbQG/uEtLMkBgFF2Fuihg="]),
///     ])
///     policy.evaluate(host: "auth.example.com", chainSPKIHashes: hashes)   // .allow / .reject / .notPinned
public struct PinningPolicy: Sendable, Equatable {
    /// The pins of one host.
    public struct HostPins: Sendable, Equatable {
        /// The host name, lower case, without a trailing dot.
        public var host: String
        /// Whether subdomains of `host` (`api.auth.example.com`) are pinned too.
        public var includesSubdomains: Bool
        /// The pinned SHA-256 SubjectPublicKeyInfo hashes, base64.
        public var pins: [String]

        public init(host: String, includesSubdomains: Bool = false, pins: [String]) {
            self.host = host
            self.includesSubdomains = includesSubdomains
            self.pins = pins
        }
    }

    private struct Rule: Sendable, Equatable {
        var host: String
        var includesSubdomains: Bool
        var hashes: Set<Data>
    }

    private let rules: [String: Rule]

    /// A policy pinning each given host; throws ``PinningConfigurationError`` for an empty host, a
    /// host given twice, no pins, or a pin that is not the base64 of 32 bytes.
    public init(_ hosts: [HostPins]) throws {
        var rules: [String: Rule] = [:]
        for entry in hosts {
            let host = Self.normalize(entry.host)
            guard !host.isEmpty else { throw PinningConfigurationError(.emptyHost, host: entry.host) }
            guard rules[host] == nil else { throw PinningConfigurationError(.duplicateHost, host: host) }
            guard !entry.pins.isEmpty else { throw PinningConfigurationError(.noPins, host: host) }
            var hashes = Set<Data>()
            for pin in entry.pins {
                guard let hash = Data(base64Encoded: pin), hash.count == SHA256.byteCount else {
                    throw PinningConfigurationError(.invalidPin(pin), host: host)
                }
                hashes.insert(hash)
            }
            rules[host] = Rule(host: host, includesSubdomains: entry.includesSubdomains, hashes: hashes)
        }
        self.rules = rules
    }

    /// Whether a connection to `host` presenting a chain whose SubjectPublicKeyInfo SHA-256 hashes are
    /// `chainSPKIHashes` (leaf first, any order works) may go on.
    ///
    /// The most specific rule applies: the host's own, else the nearest parent domain's that includes
    /// subdomains. No rule → `.notPinned`. A rule and no pinned key anywhere in the chain → `.reject`.
    public func evaluate(host: String, chainSPKIHashes: [Data]) -> PinningDecision {
        guard let rule = rule(for: Self.normalize(host)) else { return .notPinned }
        guard !chainSPKIHashes.isEmpty else { return .reject(.emptyChain(host: rule.host)) }
        if chainSPKIHashes.contains(where: rule.hashes.contains) { return .allow }
        return .reject(.noPinnedKey(host: rule.host))
    }

    /// ``evaluate(host:chainSPKIHashes:)`` for a chain of DER certificates. A certificate whose
    /// SubjectPublicKeyInfo cannot be read counts as matching no pin.
    public func evaluate(host: String, certificateChain: [Data]) -> PinningDecision {
        let hashes = certificateChain.compactMap { SubjectPublicKeyInfo.derFromCertificate($0) }.map(Self.hash(ofSPKI:))
        if hashes.isEmpty, !certificateChain.isEmpty, rule(for: Self.normalize(host)) != nil {
            return .reject(.unreadableCertificate(host: Self.normalize(host)))
        }
        return evaluate(host: host, chainSPKIHashes: hashes)
    }

    /// The SHA-256 of a DER SubjectPublicKeyInfo (what a pin is the base64 of).
    public static func hash(ofSPKI spki: Data) -> Data {
        Data(SHA256.hash(data: spki))
    }

    /// The pin of a DER SubjectPublicKeyInfo: base64 of its SHA-256.
    public static func pin(ofSPKI spki: Data) -> String {
        hash(ofSPKI: spki).base64EncodedString()
    }

    private func rule(for host: String) -> Rule? {
        if let exact = rules[host] { return exact }
        var labels = host.split(separator: ".", omittingEmptySubsequences: false)
        while labels.count > 1 {
            labels.removeFirst()
            if let parent = rules[labels.joined(separator: ".")], parent.includesSubdomains { return parent }
        }
        return nil
    }

    private static func normalize(_ host: String) -> String {
        var host = host.lowercased()
        while host.hasSuffix(".") { host.removeLast() }
        return host
    }
}
