import FluentKit
import Foundation
import LatchCore
import Logging

/// The caller's identities (C1) without HTTP (issue 29 §1): link Apple, WeChat, a phone, or an email with
/// a password (two calls, see `EmailLink`); unlink one (`email` included, see `EmailRemoval`), never the
/// last way to sign in. Linking and unlinking need a sign-in within 10 minutes or a verification token
/// (`link_identity`, `unlink_identity`). `IdentityRoutes` is its HTTP edge.
struct IdentityService: Sendable {
    let latch: LatchServices
    let metrics: LatchMetrics
    let services: IdentityServices
    let caller: Caller
    let db: any Database
    let logger: Logger

    /// What a call of link or unlink did.
    enum Outcome: Sendable {
        /// A code went to the address (the first of two calls): 202.
        case codeSent(EmailLinkCodeSent)
        /// Done: the account's fresh profile.
        case done(UserInfo)
    }

    /// Links `provider` with what `body` proves.
    func link(_ provider: SignInProvider, _ body: LinkIdentityRequest) async throws -> Outcome {
        let proven: ProvenIdentity
        switch provider {
        case .email:
            return try await linkEmail(body)
        case .apple:
            try await stepUp.requireRecentSignIn(orProof: body.verificationToken, action: .linkIdentity)
            proven = try await prover.proveApple(
                Grant.AppleProof(
                    identityToken: try body.identityToken.requiredNonEmpty("identity_token"), nonce: body.nonce,
                    authorizationCode: body.authorizationCode))
        case .wechat:
            try await stepUp.requireRecentSignIn(orProof: body.verificationToken, action: .linkIdentity)
            proven = try await prover.proveWeChat(code: try body.code.requiredNonEmpty("code"))
        case .phone:
            try await stepUp.requireRecentSignIn(orProof: body.verificationToken, action: .linkIdentity)
            let phone = try Validate.phone(body.phone)
            let code = try body.code.requiredNonEmpty("code")
            try Validate.sixDigitCode(code)
            // The notice budget is checked before the texted code is used (issue 28 §2).
            try await latch.securityChanges.admit(.phoneAdded, by: caller.changeActor, on: db)
            proven = try await prover.provePhone(phone, code: code)
        }
        let (latch, caller) = (self.latch, self.caller)
        let now = latch.clock.epochSeconds
        // The identity, its event, the hold and the notice commit together (issue 20 §1).
        try await db.tracedTransaction { database in
            try await latch.identities.link(proven, to: caller.user, by: caller.session, now: now, on: database)
            try await AppleRefreshTokens.keep(
                proven, secrets: latch.secrets, identities: latch.identities, on: database)
            try await latch.securityChanges.apply(
                SecurityChange(provider == .phone ? .phoneAdded : .identityLinked), by: caller.changeActor,
                on: database)
        }
        return .done(try await profile())
    }

    /// `provider` `email`, in two calls: without `code` a code is mailed; with it the address is added
    /// (see `EmailLink`).
    private func linkEmail(_ body: LinkIdentityRequest) async throws -> Outcome {
        let (latch, caller) = (self.latch, self.caller)
        let link = EmailLink(
            latch: latch, secretGuard: secretGuard, db: db, userID: caller.user, session: caller.session)
        guard let code = body.code else {
            try await stepUp.requireRecentSignIn(orProof: body.verificationToken, action: .linkIdentity)
            return .codeSent(try await link.sendCode(email: body.email, password: body.password))
        }
        // The notice budget is checked before the code is used (issue 28 §2).
        try await latch.securityChanges.admit(.emailAdded, by: caller.changeActor, on: db)
        try await link.confirm(email: body.email, code: code) { database, previous in
            // The address removed before this one hears of the new one too (issue 28 §2).
            try await latch.securityChanges.apply(
                SecurityChange(.emailAdded, alsoNotify: previous), by: caller.changeActor, on: database)
        }
        return .done(try await profile())
    }

    /// Unlinks `provider`. The email needs more than a recent sign-in (issue 28 §2): a code mailed to
    /// that address (`EmailRemoval`) or a verification token; every unlink is a security change whose
    /// notice reaches the removed address too.
    func unlink(_ provider: SignInProvider, _ body: UnlinkIdentityRequest) async throws -> Outcome {
        let (latch, caller) = (self.latch, self.caller)
        var removedAddress: String?
        if provider == .email {
            let removal = EmailRemoval(latch: latch, secretGuard: secretGuard, db: db, userID: caller.user)
            guard let address = try await removal.currentAddress() else { throw LatchError.notFound }
            if let proof = body.verificationToken {
                _ = try await Redemption(latch: latch).redeem(
                    proof, action: .unlinkIdentity, parameters: [:], by: caller, on: db)
            } else if let code = body.code {
                // Held like every path to the action (issue 28 §2).
                try await latch.holds.check(
                    VerificationAction.unlinkIdentity.rawValue, of: caller.user, now: latch.clock.epochSeconds, on: db)
                try await removal.checkCode(code, address: address)
            } else {
                try await stepUp.requireRecentSignIn(orProof: nil, action: .unlinkIdentity)
                return .codeSent(try await removal.sendCode(to: address))
            }
            removedAddress = address
        } else {
            try await stepUp.requireRecentSignIn(orProof: body.verificationToken, action: .unlinkIdentity)
        }
        let change: SecurityChange =
            switch provider {
            case .email: SecurityChange(.emailRemoved, alsoNotify: removedAddress)
            case .phone: SecurityChange(.phoneRemoved)
            case .apple, .wechat: SecurityChange(.identityUnlinked)
            }
        // The unlink, its event, the hold and the notices (to the removed address too) commit together.
        let outcome = try await db.tracedTransaction { database in
            let outcome = try await latch.identities.unlink(provider, of: caller.user, on: database)
            if case .removed = outcome {
                try await latch.securityChanges.apply(change, by: caller.changeActor, on: database)
            }
            return outcome
        }
        switch outcome {
        case .notFound: throw LatchError.notFound
        case .last:
            throw LatchError(
                .conflict, field: "provider", reasons: ["last_sign_in_method"],
                message: ErrorMessage.lastSignInMethod(.unlink).text(in: caller.language))
        case .removed(let appleRefreshToken, let appleClientID):
            // Unlinking Apple also ends the app's Apple authorization (TN3194), when a refresh token is held.
            if appleRefreshToken != nil {
                _ = await AppleRefreshTokens.revoke(
                    sealed: appleRefreshToken, clientID: appleClientID, endpoint: services.appleTokens,
                    secrets: latch.secrets, now: latch.clock.epochSeconds, retryingOn: db, logger: logger)
            }
        }
        return .done(try await profile())
    }

    /// The fresh profile, also refreshing this instance's `/v1/me` cache.
    private func profile() async throws -> UserInfo {
        guard let user = try await latch.accounts.user(caller.user, on: db) else { throw LatchError.sessionExpired }
        return try await latch.accounts.freshProfile(of: user, now: latch.clock.epochSeconds, on: db)
    }

    private var stepUp: StepUp { StepUp(latch: latch, caller: caller, db: db) }

    private var secretGuard: SecretGuard {
        SecretGuard(latch: latch, metrics: metrics, db: db, clientIP: caller.ip, language: caller.language)
    }

    private var prover: IdentityProver {
        IdentityProver(
            latch: latch, services: services, metrics: metrics, db: db, clientIP: caller.ip,
            language: caller.language, logger: logger)
    }
}
