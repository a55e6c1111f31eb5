// How error answers of the verification endpoints reach the flow.
import Foundation
import LatchClient
import LatchCore
import Testing

@Suite("Verification server failures")
struct VerificationServerFailureTests {
    @Test("AUTH_003 carries attempts_remaining; AUTH_002 carries locked_until; AUTH_004 ends the session")
    func C11_errorAnswersMapToFailures() {
        let until = Date(timeIntervalSince1970: 1_765_173_900)

        #expect(
            VerificationServerFailure(
                status: 400, body: APIErrorBody(error: "AUTH_003", message: "验证码错误", attemptsRemaining: 2))
                == .wrongAnswer(attemptsRemaining: 2))
        #expect(
            VerificationServerFailure(
                status: 423, body: APIErrorBody(error: "AUTH_002", message: "", lockedUntil: until))
                == .locked(until: until))
        #expect(
            VerificationServerFailure(status: 401, body: APIErrorBody(error: "AUTH_004", message: ""))
                == .sessionExpired)
    }

    @Test("a finished, unknown or invalid verification is gone; no method ends the flow; the rest is kept by code")
    func otherAnswers() {
        #expect(
            VerificationServerFailure(status: 409, body: APIErrorBody(error: "CONFLICT", message: ""))
                == .verificationGone)
        #expect(
            VerificationServerFailure(status: 404, body: APIErrorBody(error: "NOT_FOUND", message: ""))
                == .verificationGone)
        #expect(
            VerificationServerFailure(status: 409, body: APIErrorBody(error: "NO_VERIFICATION_METHOD", message: ""))
                == .noVerificationMethod)
        #expect(
            VerificationServerFailure(status: 429, body: APIErrorBody(error: "RATE_LIMITED", message: ""))
                == .other(code: "RATE_LIMITED"))
        #expect(
            VerificationServerFailure(status: 423, body: APIErrorBody(error: "AUTH_002", message: ""))
                == .other(code: "AUTH_002"))
    }
}
