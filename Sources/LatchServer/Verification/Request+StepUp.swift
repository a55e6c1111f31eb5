import FluentKit
import Foundation
import HTTPTypes
import Hummingbird
import LatchCore

extension LatchRequest {
    /// The signed-in session as a service's caller (issue 29 §1).
    var caller: Caller {
        get throws {
            let me = try signedIn
            return Caller(user: me.userID, session: me.sessionID, ip: clientIP, language: language)
        }
    }

    /// Step-up for the signed-in session (`StepUp`).
    var stepUp: StepUp {
        get throws { StepUp(latch: latch, caller: try caller, db: db) }
    }

    /// Redeems a verification token for the signed-in user, this `action` and these `parameters`,
    /// exactly once. Apps that mount LatchServer call it in their own sensitive routes:
    ///
    ///     latch.routes(on: router).grouped(RequireSignedIn()).post("withdrawals") { req in
    ///         let body = try req.decodeJSON(Withdrawal.self)
    ///         _ = try await req.redeemVerification(body.verificationToken, action: .withdrawal, parameters: body.parameters)
    ///         return try await performWithdrawal(body)  // reached only with a fresh, matching proof
    ///     }
    public func redeemVerification(
        _ token: String, action: VerificationAction, parameters: [String: String], on database: (any Database)? = nil
    ) async throws -> RedeemedVerification {
        try await Redemption(latch: latch).redeem(
            token, action: action, parameters: parameters, by: try caller, on: database ?? db)
    }
}
