import Foundation
import LatchCore
import Testing

/// Issue 14 §3: the error details are written once (`LatchErrorDetails`) and sit at the top level
/// of the error body, as before; each code has one default status.
@Suite("Issue 14 error shape")
struct ErrorShapeTests {
    @Test("test_I14 the details are encoded at the top level of the error body and read back the same")
    func test_I14_detailsAtTopLevel() throws {
        let details = LatchErrorDetails(
            field: "code", reasons: ["too_long"], attemptsRemaining: 2,
            lockedUntil: Date(timeIntervalSince1970: 1_700_000_000),
            retryAfter: 30, challengeId: "c1", method: LoginChallengeMethod.totp.rawValue)
        let body = APIErrorBody(error: "AUTH_003", message: "m", details: details)
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        let data = try encoder.encode(body)
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(
            Set(json.keys) == [
                "error", "message", "field", "reasons", "attempts_remaining", "locked_until", "retry_after",
                "challenge_id", "method"
            ])
        #expect(json["attempts_remaining"] as? Int == 2 && json["challenge_id"] as? String == "c1")
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        #expect(try decoder.decode(APIErrorBody.self, from: data) == body)
    }

    @Test(
        "test_I14 the standard statuses: AUTH_002 423, AUTH_003 400, NOT_FOUND 404, RATE_LIMITED 429, every code a 4xx or 5xx"
    )
    func test_I14_defaultStatuses() {
        #expect(LatchErrorCode.locked.defaultStatus == 423)
        #expect(LatchErrorCode.wrongCode.defaultStatus == 400)
        #expect(LatchErrorCode.notFound.defaultStatus == 404)
        #expect(LatchErrorCode.rateLimited.defaultStatus == 429)
        #expect(LatchErrorCode.allCases.allSatisfy { (400..<600).contains($0.defaultStatus) })
    }
}
