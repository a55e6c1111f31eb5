import FluentKit
import LatchCore

extension LatchApplication {
    /// Redeems a verification token for the signed-in user of `req`, this `action` and these `parameters`,
    /// exactly once (as `POST /v1/verifications/redeem` does). Apps that mount LatchServer call it in their
    /// own sensitive routes, behind `LatchRoutes.signedIn()`:
    ///
    ///     latch.routes(on: router).signedIn().post("withdrawals") { req in
    ///         let body = try req.decodeJSON(Withdrawal.self)
    ///         _ = try await latch.redeemVerification(
    ///             body.verificationToken, action: .withdrawal, parameters: body.parameters, for: req)
    ///         return try await performWithdrawal(body)  // reached only with a fresh, matching proof
    ///     }
    ///
    /// `database` (e.g. the app's own transaction) defaults to the request's database.
    public func redeemVerification(
        _ token: String, action: VerificationAction, parameters: [String: String], for req: LatchRequest,
        on database: (any Database)? = nil
    ) async throws -> RedeemedVerification {
        try await Redemption(latch: latch).redeem(
            token, action: action, parameters: parameters, by: try req.caller, on: database ?? requestDatabase(req))
    }
}
