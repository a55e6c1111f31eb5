import FluentKit
import Foundation
import LatchCore

extension LatchServices {
    /// Queues one approval push (issue 43 §2) to every phone of `user` with a push token, asking to
    /// approve verification `verificationID` for `action`; answers how many it queued: 0 when APNs is not
    /// configured (`LATCH_APNS_*`) or no key of the user registered a token.
    ///
    /// Pass the transaction's `db`: the pushes commit (and are sent) with the verification, or not at all.
    /// The text names only the kind of action, in `language`; `expiresAt` (seconds since 1970) is the
    /// verification's expiry: APNs drops the push after it, and the queue does not send it later. Throws
    /// 503 `delivery_queue_full` when the queue's codes lane is full.
    ///
    ///     let pushed = try await latch.pushApproval(
    ///         user: caller.user, verificationID: id, action: "withdrawal", expiresAt: expiry,
    ///         language: caller.language, on: transaction)
    func pushApproval(
        user: UUID, verificationID: UUID, action: String, expiresAt: Double, language: LatchLanguage,
        on db: any Database
    ) async throws -> Int {
        guard let pushes else { return 0 }
        let phones = try await PushTokenStore().phones(of: user, on: db)
        let text = ApprovalPushText(action: VerificationAction(action), language: language)
        for phone in phones {
            try await pushes.enqueue(
                APNsPush(
                    credentialID: phone.credentialID, token: phone.token, environment: phone.environment.rawValue,
                    title: text.title, body: text.body, verificationID: verificationID,
                    expiresAt: Int(expiresAt.rounded(.down))),
                on: db)
        }
        return phones.count
    }
}
