import FluentKit
import Foundation
import LatchCore
import Logging

/// Issue 12 §1 without HTTP (issue 29 §1): the caller deletes the account (a sign-in within 10 minutes,
/// or a verification token for `delete_account` with parameters `{}`), or takes everything held about
/// it as one document, guarded the same way (issue 20 §4: a token held for a moment must not take the
/// whole account away; `export_account`). `AccountLifecycleRoutes` is its HTTP edge.
struct AccountLifecycleService: Sendable {
    let latch: LatchServices
    let caller: Caller
    let db: any Database
    /// How the deletion ends the account's Apple authorization (nil: Apple's team key is not configured).
    let appleTokens: AppleTokenEndpoint?
    let logger: Logger

    static let deleteAction = VerificationAction.deleteAccount
    static let exportAction = VerificationAction.exportAccount

    private var stepUp: StepUp { StepUp(latch: latch, caller: caller, db: db) }

    /// Deletes the caller's account; the answer says whether Apple's authorization was revoked.
    func delete(proof: String?) async throws -> AccountDeleted {
        try await stepUp.requireRecentSignIn(orProof: proof, action: Self.deleteAction)
        do {
            let revocation = try await AccountDeletion(latch: latch, appleTokens: appleTokens, logger: logger)
                .delete(userID: caller.user, language: caller.language, on: db)
            return AccountDeleted(appleRevocation: revocation)
        } catch let error as LatchError where error.code == .notFound {
            // Deleted meanwhile (a second request, or an operator): this session is over too.
            throw LatchError.sessionExpired
        }
    }

    /// Everything held about the caller (the proof is spent by this call).
    func export(proof: String?) async throws -> AccountExport {
        try await stepUp.requireRecentSignIn(orProof: proof, action: Self.exportAction)
        guard
            let document = try await AccountExport.collect(
                userID: caller.user, currentSession: caller.session, now: latch.clock.now, services: latch, on: db)
        else { throw LatchError.sessionExpired }
        return document
    }
}
