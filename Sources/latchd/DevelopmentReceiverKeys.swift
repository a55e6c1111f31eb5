import Foundation
import LatchEvents
import LatchServer
import NIOCore

/// The SET verifier of `latchd events-receiver --jwks URL`: the JWKS fetched at the first SET and again
/// when a SET names a key it does not hold (latchd rotated), at most every 10 seconds.
actor DevelopmentReceiverKeys {
    let url: URL
    let audience: String?
    private var verifier: LatchSecurityEventVerifier?
    private var fetchedAt: Date?

    init(url: URL, audience: String?) {
        self.url = url
        self.audience = audience
    }

    /// The verified SET; throws why it was refused (a JWKS that cannot be fetched refuses too).
    func verify(_ token: String, now: Date) async throws -> LatchSecurityEvent {
        do {
            return try await current(now: now).verify(token)
        } catch LatchSecurityEventError.unknownKey(let kid) {
            guard fetchedAt.map({ now.timeIntervalSince($0) >= 10 }) ?? true else {
                throw LatchSecurityEventError.unknownKey(kid)
            }
            verifier = nil
            return try await current(now: now).verify(token)
        }
    }

    private func current(now: Date) async throws -> LatchSecurityEventVerifier {
        if let verifier { return verifier }
        let made = try LatchSecurityEventVerifier(jwks: try await Self.fetch(url), issuer: nil, audience: audience)
        verifier = made
        fetchedAt = now
        return made
    }

    /// The body of a GET of `url` (latchd's outbound client: at most 1 MiB, within 10 s, no redirects). Not
    /// URLSession: latchd does not link FoundationNetworking, which loads libcurl and its TLS and Kerberos
    /// libraries, about 6 MiB resident (issue 44 §4, PERFORMANCE.md session 30).
    static func fetch(_ url: URL) async throws -> Data {
        let response = try await OutboundHTTP.shared.get(url.absoluteString, timeout: .seconds(10))
        guard response.status == 200 else { throw DevelopmentReceiverKeysError.status(response.status) }
        return response.body
    }
}

/// Why the JWKS could not be fetched.
enum DevelopmentReceiverKeysError: Error {
    /// The JWKS URL answered this status, not 200.
    case status(UInt)
}
