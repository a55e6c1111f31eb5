import Fluent
import LatchCore
import Vapor

/// Issue 12 §1: `DELETE /v1/me` deletes the signed-in account (a sign-in within 10 minutes, or a
/// verification token for action `delete_account` with parameters `{}`) and answers
/// `{apple_revocation}`; `GET /v1/me/export` answers everything held about the user as one document,
/// guarded the same way (issue 20 §4: a token held for a moment must not take the whole account
/// away): a sign-in within 10 minutes, or `?verification_token=` for action `export_account` with
/// parameters `{}` (a query parameter, as a GET has no body; the token is spent by this request).
struct AccountLifecycleRoutes: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        let me = routes.grouped("v1", "me").grouped(RequireSignedIn())
        me.delete(use: delete)
        me.get("export", use: export)
    }

    func delete(_ req: Request) async throws -> AccountDeleted {
        let me = try req.signedIn
        var proof: String?
        if let data = req.body.data, data.readableBytes > 0 {
            proof = try req.decodeJSON(DeleteAccountRequest.self).verificationToken
        }
        try await req.requireRecentSignIn(orProof: proof, action: .deleteAccount)
        do {
            let revocation = try await AccountDeletion(request: req).delete(
                userID: me.userID, language: req.language, on: req.db)
            return AccountDeleted(appleRevocation: revocation)
        } catch let error as LatchError where error.code == .notFound {
            // Deleted meanwhile (a second request, or an operator): this session is over too.
            throw LatchError.sessionExpired
        }
    }

    static let exportAction = VerificationAction.exportAccount

    func export(_ req: Request) async throws -> AccountExport {
        let me = try req.signedIn
        try await req.requireRecentSignIn(
            orProof: req.query[String.self, at: "verification_token"], action: Self.exportAction)
        guard
            let document = try await AccountExport.collect(
                userID: me.userID, currentSession: me.sessionID, now: req.latch.clock.now, on: req.db)
        else { throw LatchError.sessionExpired }
        return document
    }
}
