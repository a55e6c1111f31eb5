import FluentKit
import Foundation
import LatchCore

extension IdentityProver {
    /// Texts a sign-in code to `phone` (`POST /v1/sms/codes`), the same answer whether or not the number
    /// has an account; 429 (`retry_after`) past the client's or the number's send limits.
    func sendPhoneCode(to phone: PhoneNumber) async throws -> SMSCodeAccepted {
        let store = services.smsCodes
        let now = latch.clock.epochSeconds
        if let limited = try await store.admitSend(from: clientIP, now: now, on: db) {
            throw LatchError.rateLimited(retryAfter: limited.retryAfter)
        }
        switch try await store.issue(phone: phone.value, now: now, on: db) {
        case .failure(let limited):
            throw LatchError.rateLimited(retryAfter: limited.retryAfter)
        case .success(let code):
            try await latch.delivery.deliver(
                OutgoingMessage(
                    to: phone.value, channel: "sms", subject: "",
                    body: SMSCodeText.signInCode(code, language: language),
                    code: code, createdAt: latch.clock.now))
            return SMSCodeAccepted(
                expiresIn: Int(SMSCodeStore.lifetime), resendAfter: Int(SMSCodeStore.resendInterval))
        }
    }
}
