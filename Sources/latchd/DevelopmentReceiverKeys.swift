import Foundation
import LatchEvents

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

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
        let (data, _) = try await URLSession.shared.data(from: url)
        let made = try LatchSecurityEventVerifier(jwks: data, issuer: nil, audience: audience)
        verifier = made
        fetchedAt = now
        return made
    }
}
