import FluentKit
import Foundation
import LatchCore
import Logging

/// Proves a person by Apple, WeChat or an SMS code, without HTTP (issue 29 §1): the sign-in grants and
/// the linking of an identity both start here.
struct IdentityProver: Sendable {
    let latch: LatchServices
    let services: IdentityServices
    let metrics: LatchMetrics
    let db: any Database
    /// The client's address, for the security events.
    let clientIP: String?
    /// The language of the errors and of a lock notice.
    let language: LatchLanguage
    let logger: Logger

    /// Checks an Apple identity token (and its nonce), and records its use: a token already accepted
    /// once (here or by another latchd on the same database) is refused with `token_replayed`.
    /// An `authorizationCode` is exchanged at Apple's token endpoint (when the team key is configured)
    /// and must belong to the same person; Apple's refresh token then comes with the identity.
    func proveApple(_ proof: Grant.AppleProof) async throws -> ProvenIdentity {
        guard let apple = services.apple else {
            throw IdentityFailure.notConfigured(.apple, field: "grant_type").latchError(language: language)
        }
        let (identityToken, nonce, authorizationCode) = (proof.identityToken, proof.nonce, proof.authorizationCode)
        if let nonce {
            guard (1...256).contains(nonce.utf8.count) else { throw LatchError.invalid("nonce", ["invalid"]) }
        }
        if let authorizationCode {
            let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.~")
            guard (1...1024).contains(authorizationCode.utf8.count),
                authorizationCode.allSatisfy({ allowed.contains($0) })
            else {
                throw LatchError.invalid("authorization_code", ["invalid"])
            }
        }
        let nickname = try Self.name(proof.fullName)
        let verified: AppleIdentityVerifier.VerifiedIdentity
        do {
            verified = try await apple.verify(identityToken, rawNonce: nonce, now: latch.clock.epochSeconds)
        } catch let failure as IdentityFailure {
            throw failure.latchError(language: language)
        }
        guard
            try await AppleTokenUseStore.recordFirstUse(
                of: identityToken, expiresAt: verified.expiresAt, now: latch.clock.epochSeconds, on: db)
        else { throw AppleIdentityVerifier.rejected("token_replayed").latchError(language: language) }
        var proven = ProvenIdentity(
            provider: .apple, subject: verified.subject, email: verified.email, emailVerified: verified.emailVerified,
            nickname: nickname, appleClientID: verified.audience)
        if let authorizationCode {
            guard let endpoint = services.appleTokens else {
                logger.warning(
                    "an Apple authorization_code was sent but LATCH_APPLE_TEAM_ID/KEY_ID/PRIVATE_KEY are not set: it is ignored, and deleting this account cannot revoke its Apple authorization"
                )
                return proven
            }
            let exchanged: AppleTokenEndpoint.Exchanged
            do {
                exchanged = try await endpoint.exchange(
                    code: authorizationCode, clientID: verified.audience, now: latch.clock.epochSeconds)
            } catch let failure as IdentityFailure {
                throw failure.latchError(language: language)
            }
            guard exchanged.subject == verified.subject else {
                throw IdentityFailure.rejected(.apple, field: "authorization_code", reason: "code_mismatch").latchError(
                    language: language)
            }
            proven.appleRefreshToken = exchanged.refreshToken
        }
        return proven
    }

    /// Exchanges a WeChat OAuth code.
    func proveWeChat(code: String) async throws -> ProvenIdentity {
        guard let wechat = services.wechat else {
            throw IdentityFailure.notConfigured(.wechat, field: "grant_type").latchError(language: language)
        }
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.~")
        guard code.count <= 256, code.allSatisfy({ allowed.contains($0) }) else {
            throw LatchError.invalid("code", ["invalid"])
        }
        let verified: WeChatOAuth.VerifiedIdentity
        do {
            verified = try await wechat.identity(forCode: code)
        } catch let failure as IdentityFailure {
            throw failure.latchError(language: language)
        }
        return ProvenIdentity(provider: .wechat, subject: verified.subject, nickname: try? Self.name(verified.nickname))
    }

    /// Checks a texted code for `phone` as one guess against the number's budget of wrong codes
    /// (`GuessBudget.codes`, which new codes do not reset). A guess while no code is live costs the
    /// number nothing. Wrong: AUTH_003 with the tries left; locked: AUTH_002, and the number is texted once.
    func provePhone(_ phone: PhoneNumber, code: String) async throws -> ProvenIdentity {
        let latch = self.latch
        let store = services.smsCodes
        var codeCheck = SMSCodeStore.Check.wrong(attemptsRemaining: 0)
        guard try await store.hasLiveCode(phone: phone.value, now: latch.clock.epochSeconds, on: db) else {
            throw LatchError.wrongCode(attemptsRemaining: 0)
        }
        let owner = try await Identity.owner(
            of: .phone, subject: phone.value, identities: latch.identities, on: db)
        let result = try await SecretGuard(
            latch: latch, metrics: metrics, db: db, clientIP: clientIP, language: language
        ).guardedCheck(
            throttle: nil, budget: .codes, key: .smsCode(phone: phone.value), owner: owner, failureEvent: .signInFailed,
            notice: .sms(to: phone.value, SMSCodeText.codesLocked(until:language:))
        ) {
            codeCheck = try await store.check(code, phone: phone.value, now: latch.clock.epochSeconds, on: db)
            return codeCheck == .matched
        }
        switch result {
        case .matched:
            return ProvenIdentity(provider: .phone, subject: phone.value)
        case .failed(let beforeLock):
            guard case .wrong(let remaining) = codeCheck else { throw LatchError.wrongCode(attemptsRemaining: 0) }
            throw LatchError.wrongCode(attemptsRemaining: min(remaining, beforeLock))
        case .locked(let until):
            throw LatchError.locked(until: until)
        }
    }

    /// A display name as given by an app or WeChat: trimmed, at most 64 characters, no control characters.
    static func name(_ raw: String?) throws -> String? {
        guard let raw else { return nil }
        guard raw.utf8.count <= 1024 else { throw LatchError.invalid("full_name", ["too_long"]) }
        let cleaned = Validate.deviceName(raw).map { String($0.prefix(64)) }
        return cleaned
    }
}
