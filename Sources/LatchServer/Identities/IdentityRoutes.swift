import Fluent
import Foundation
import LatchCore
import SQLKit
import Vapor

extension SMSCodeRequest: Content {}
extension SMSCodeAccepted: Content {}
extension LinkIdentityRequest: Content {}
extension UnlinkIdentityRequest: Content {}

/// Phone codes and the signed-in account's identities (C1):
/// `POST /v1/sms/codes` texts a sign-in code (the same answer whether or not the number has an account);
/// `POST /v1/me/identities` links Apple, WeChat, a phone, or an email with a password (two calls, see
/// `EmailLink`); `DELETE /v1/me/identities/{provider}` unlinks
/// one (`email` included), refusing to remove the last way to sign in. Linking and unlinking need a
/// sign-in within 10 minutes or a verification token (`link_identity`, `unlink_identity`).
struct IdentityRoutes: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.post("v1", "sms", "codes", use: sendCode)
        let identities = routes.grouped("v1", "me", "identities").grouped(RequireSignedIn())
        identities.post(use: link)
        identities.delete(":provider", use: unlink)
    }

    func sendCode(_ req: Request) async throws -> Response {
        try req.chargeRateLimit(.codeSend)
        let body = try req.decodeJSON(SMSCodeRequest.self)
        let phone = try Validate.phone(body.phone)
        let latch = req.latch
        let store = req.identityServices.smsCodes
        let now = latch.clock.epochSeconds
        if let limited = try await store.admitSend(from: req.clientIP, now: now, on: req.db) {
            throw LatchError.rateLimited(retryAfter: limited.retryAfter)
        }
        switch try await store.issue(phone: phone.value, now: now, on: req.db) {
        case .failure(let limited):
            throw LatchError.rateLimited(retryAfter: limited.retryAfter)
        case .success(let code):
            try await latch.delivery.deliver(
                OutgoingMessage(
                    to: phone.value, channel: "sms", subject: "",
                    body: SMSCodeText.signInCode(code, language: req.language),
                    code: code, createdAt: latch.clock.now))
            let accepted = SMSCodeAccepted(
                expiresIn: Int(SMSCodeStore.lifetime), resendAfter: Int(SMSCodeStore.resendInterval))
            return try await accepted.encodeResponse(status: .accepted, for: req)
        }
    }

    func link(_ req: Request) async throws -> Response {
        let me = try req.signedIn
        let body = try req.decodeJSON(LinkIdentityRequest.self)
        guard let provider = SignInProvider(rawValue: body.provider) else {
            throw LatchError.invalid("provider", ["unsupported_provider"])
        }
        let proven: ProvenIdentity
        switch provider {
        case .email:
            return try await linkEmail(body, me: me, req)
        case .apple:
            try await req.requireRecentSignIn(orProof: body.verificationToken, action: .linkIdentity)
            proven = try await req.identityProver.proveApple(
                Grant.AppleProof(
                    identityToken: try body.identityToken.requiredNonEmpty("identity_token"), nonce: body.nonce,
                    authorizationCode: body.authorizationCode))
        case .wechat:
            try await req.requireRecentSignIn(orProof: body.verificationToken, action: .linkIdentity)
            proven = try await req.identityProver.proveWeChat(code: try body.code.requiredNonEmpty("code"))
        case .phone:
            try await req.requireRecentSignIn(orProof: body.verificationToken, action: .linkIdentity)
            let phone = try Validate.phone(body.phone)
            let code = try body.code.requiredNonEmpty("code")
            try Validate.sixDigitCode(code)
            // The notice budget is checked before the texted code is used (issue 28 §2).
            try await req.latch.securityChanges.admit(.phoneAdded, by: try req.changeActor, on: req.db)
            proven = try await req.identityProver.provePhone(phone, code: code)
        }
        let latch = req.latch
        let now = latch.clock.epochSeconds
        // The identity, its event, the hold and the notice commit together (issue 20 §1).
        try await req.db.transaction { database in
            try await latch.identities.link(proven, to: me.userID, by: me.sessionID, now: now, on: database)
            try await AppleRefreshTokens.keep(proven, secrets: latch.secrets, on: database)
            try await req.securityChanged(provider == .phone ? .phoneAdded : .identityLinked, on: database)
        }
        return try await profile(of: me.userID, req).encodeResponse(status: .created, for: req)
    }

    /// `provider` `email`, in two calls: without `code` a code is mailed; with it the address is added
    /// (see `EmailLink`).
    private func linkEmail(_ body: LinkIdentityRequest, me: SignedInSession, _ req: Request) async throws -> Response {
        let link = EmailLink(req: req, userID: me.userID)
        guard let code = body.code else {
            try await req.requireRecentSignIn(orProof: body.verificationToken, action: .linkIdentity)
            return try await link.sendCode(email: body.email, password: body.password)
        }
        // The notice budget is checked before the code is used (issue 28 §2).
        try await req.latch.securityChanges.admit(.emailAdded, by: try req.changeActor, on: req.db)
        try await link.confirm(email: body.email, code: code) { database, previous in
            // The address removed before this one hears of the new one too (issue 28 §2).
            try await req.securityChanged(SecurityChange(.emailAdded, alsoNotify: previous), on: database)
        }
        return try await profile(of: me.userID, req).encodeResponse(status: .created, for: req)
    }

    /// Unlinks `provider`. The email needs more than a recent sign-in (issue 28 §2): a code mailed to
    /// that address (`EmailRemoval`) or a verification token; every unlink is a security change whose
    /// notice reaches the removed address too.
    func unlink(_ req: Request) async throws -> Response {
        let me = try req.signedIn
        guard let provider = req.parameters.get("provider").flatMap(SignInProvider.init(rawValue:)) else {
            throw LatchError.notFound
        }
        var body = UnlinkIdentityRequest()
        if let data = req.body.data, data.readableBytes > 0 {
            body = try req.decodeJSON(UnlinkIdentityRequest.self)
        }
        let latch = req.latch
        let userID = me.userID
        var removedAddress: String?
        if provider == .email {
            let removal = EmailRemoval(req: req, userID: userID)
            guard let address = try await removal.currentAddress() else { throw LatchError.notFound }
            if let proof = body.verificationToken {
                _ = try await req.redeemVerification(
                    proof, action: VerificationAction.unlinkIdentity.rawValue, parameters: [:])
            } else if let code = body.code {
                // Held like every path to the action (issue 28 §2).
                try await latch.holds.check(
                    VerificationAction.unlinkIdentity.rawValue, of: userID, now: latch.clock.epochSeconds, on: req.db)
                try await removal.checkCode(code, address: address)
            } else {
                try await req.requireRecentSignIn(orProof: nil, action: .unlinkIdentity)
                return try await removal.sendCode(to: address)
            }
            removedAddress = address
        } else {
            try await req.requireRecentSignIn(orProof: body.verificationToken, action: .unlinkIdentity)
        }
        let change: SecurityChange =
            switch provider {
            case .email: SecurityChange(.emailRemoved, alsoNotify: removedAddress)
            case .phone: SecurityChange(.phoneRemoved)
            case .apple, .wechat: SecurityChange(.identityUnlinked)
            }
        // The unlink, its event, the hold and the notices (to the removed address too) commit together.
        let outcome = try await req.db.transaction { database in
            let outcome = try await latch.identities.unlink(provider, of: userID, on: database)
            if case .removed = outcome { try await req.securityChanged(change, on: database) }
            return outcome
        }
        switch outcome {
        case .notFound: throw LatchError.notFound
        case .last:
            throw LatchError(
                .conflict, field: "provider", reasons: ["last_sign_in_method"],
                message: ErrorMessage.lastSignInMethod(.unlink).text(in: req.language))
        case .removed(let appleRefreshToken, let appleClientID):
            // Unlinking Apple also ends the app's Apple authorization (TN3194), when a refresh token is held.
            if appleRefreshToken != nil {
                _ = await AppleRefreshTokens.revoke(
                    sealed: appleRefreshToken, clientID: appleClientID, endpoint: req.identityServices.appleTokens,
                    secrets: latch.secrets, now: latch.clock.epochSeconds, retryingOn: req.db, logger: req.logger)
            }
        }
        return try await profile(of: userID, req).encodeResponse(status: .ok, for: req)
    }

    /// The fresh profile, also refreshing this instance's `/v1/me` cache.
    private func profile(of userID: UUID, _ req: Request) async throws -> UserInfo {
        guard let user = try await User.find(userID, on: req.db) else { throw LatchError.sessionExpired }
        let info = try await user.profile(on: req.db)
        try req.latch.profiles.remember(info, of: userID, now: req.latch.clock.epochSeconds)
        return info
    }
}
