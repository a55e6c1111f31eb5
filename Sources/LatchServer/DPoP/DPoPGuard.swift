import FluentKit
import Foundation

/// The DPoP rules of issue 31 §1 without HTTP: which key a grant binds its session to, and whether a
/// resource request proves the key its token is bound to. Errors are `LatchError`s the edge writes as is
/// (DPOP_INVALID naming the check, USE_DPOP_NONCE with the nonce).
struct DPoPGuard: Sendable {
    let mode: DPoPMode
    /// nil: server nonces are off (`LATCH_DPOP_NONCE`).
    let nonces: DPoPNonces?
    /// The origins a proof's `htu` may name (issue 41 §2 D1).
    let origins: DPoPOrigins
    let replays = DPoPReplayCache()
    let usedAtTokenEndpoint = UsedDPoPProofStore()

    /// The key (its thumbprint) the grant's session is bound to, or nil for a bearer session (no proof, in
    /// `optional` mode). The proof is used up here, on every instance at once. `presented` is read only when
    /// the request carries a `DPoP` header (`proofs`): a grant without one pays nothing for it.
    func grantKey(
        proofs: [String], _ presented: @autoclosure () -> DPoPPresentation, now: Double, on database: any Database
    )
        async throws -> String?
    {
        guard let proof = try single(proofs, atTokenEndpoint: true) else {
            if mode == .required { throw LatchError.dpopInvalid("missing", atTokenEndpoint: true) }
            return nil
        }
        let checked = try check(proof, presented(), accessToken: nil, now: now, atTokenEndpoint: true)
        guard
            try await usedAtTokenEndpoint.firstUse(
                thumbprint: checked.thumbprint, jti: checked.jti, until: Self.expiry(of: checked), now: now,
                on: database)
        else { throw LatchError.dpopInvalid("replayed", atTokenEndpoint: true) }
        return checked.thumbprint
    }

    /// Whether a resource request may use `presented` (its token's binding `boundKey`, nil for a bearer
    /// token): a bearer token only as `Bearer`; a bound one only as `DPoP` with a fresh proof by its key,
    /// over this method and URI and this very token (`ath`). Throws the first rule broken. `request` is read
    /// only for a bound token: a bearer one pays nothing for it.
    func checkResource(
        _ presented: PresentedToken, boundKey: String?, _ request: @autoclosure () -> DPoPPresentation, now: Double
    ) throws(LatchError) {
        guard let boundKey else {
            // RFC 9449 §7.2: the DPoP scheme is for bound tokens only.
            if presented.scheme == .dpop {
                throw LatchError.dpopInvalid("not_bound", atTokenEndpoint: false, error: "invalid_token")
            }
            return
        }
        guard presented.scheme == .dpop else {
            throw LatchError.dpopInvalid("bearer_use", atTokenEndpoint: false, error: "invalid_token")
        }
        let request = request()
        guard let proof = try single(request.proofs, atTokenEndpoint: false) else {
            throw LatchError.dpopInvalid("missing", atTokenEndpoint: false)
        }
        let checked = try check(proof, request, accessToken: presented.token, now: now, atTokenEndpoint: false)
        guard checked.thumbprint == boundKey else {
            throw LatchError.dpopInvalid(DPoPProofFailure.wrongKey.rawValue, atTokenEndpoint: false)
        }
        guard replays.firstUse("\(checked.thumbprint)\n\(checked.jti)", until: Self.expiry(of: checked), now: now)
        else { throw LatchError.dpopInvalid("replayed", atTokenEndpoint: false) }
    }

    /// The one proof, nil when there is none; two or more are refused.
    private func single(_ proofs: [String], atTokenEndpoint: Bool) throws(LatchError) -> String? {
        guard proofs.count <= 1 else { throw LatchError.dpopInvalid("multiple", atTokenEndpoint: atTokenEndpoint) }
        return proofs.first
    }

    /// The stateless checks (RFC 9449 §4.3), then the nonce when nonces are on.
    private func check(
        _ proof: String, _ request: DPoPPresentation, accessToken: String?, now: Double, atTokenEndpoint: Bool
    ) throws(LatchError) -> DPoPProof {
        let checked: DPoPProof
        do {
            checked = try DPoPProof(
                proof, method: request.method, uris: request.uris, now: now, accessToken: accessToken)
        } catch {
            throw LatchError.dpopInvalid(error.rawValue, atTokenEndpoint: atTokenEndpoint)
        }
        if let nonces, !(checked.nonce.map { nonces.accepts($0, now: now) } ?? false) {
            throw LatchError.useDPoPNonce(nonces.current(now: now), atTokenEndpoint: atTokenEndpoint)
        }
        return checked
    }

    /// Until when a proof could be accepted again: its `iat` plus the accepted age (and the skew allowed).
    private static func expiry(of proof: DPoPProof) -> Double {
        proof.issuedAt + DPoPProof.maximumAge + DPoPProof.maximumSkew
    }
}

extension DPoPGuard {
    /// The guard `config` asks for: `LATCH_DPOP`, `LATCH_DPOP_NONCE` (nonces of this instance) and the
    /// public origins (`LATCH_ISSUER`, `LATCH_PUBLIC_ORIGINS`).
    init(_ config: LatchConfig) {
        self.init(
            mode: config.dpop, nonces: config.dpopNonces ? DPoPNonces() : nil,
            origins: DPoPOrigins(issuer: config.issuer, publicOrigins: config.publicOrigins, mode: config.mode))
    }
}
