import Foundation
import LatchCore
import Testing

@testable import LatchClient

/// Issue 43 §3: the approval URL, RFC 8628's polling rules and the push payload, decided in plain Swift.
@Suite("Issue 43 §3: approval URL, polling, push payload")
struct ApprovalLinkAndPollingTests {
    static let issuer = URL(string: "https://auth.example.com")!

    // MARK: - The approval URL

    @Test("43.3 the QR URL under the issuer gives the approval id and the scan secret")
    func test_43_3_linkUnderIssuerIsRead() throws {
        let link = try ApprovalLink(
            URL(string: "https://auth.example.com/approve/6f1c-42#s=Qm9vX2Nvb2w")!, issuer: Self.issuer)

        #expect(link == ApprovalLink(approvalID: "6f1c-42", scanSecret: "Qm9vX2Nvb2w"))
        // Host case and an explicit default port change nothing; text from the camera is trimmed.
        #expect(
            try ApprovalLink(" HTTPS://Auth.Example.com:443/approve/6f1c-42#s=x\n", issuer: Self.issuer)
                == ApprovalLink(approvalID: "6f1c-42", scanSecret: "x"))
        // An issuer mounted under a path.
        #expect(
            try ApprovalLink(
                URL(string: "https://example.com/auth/approve/a1#s=z")!,
                issuer: URL(string: "https://example.com/auth/")!)
                == ApprovalLink(approvalID: "a1", scanSecret: "z"))
    }

    @Test("43.3 a URL on another host, scheme or port is refused as another server")
    func test_43_3_otherHostsAreRefused() {
        for text in [
            "https://evil.example.net/approve/a1#s=x", "https://auth.example.com.evil.net/approve/a1#s=x",
            "http://auth.example.com/approve/a1#s=x", "https://auth.example.com:8443/approve/a1#s=x",
            "https://user@auth.example.com/approve/a1#s=x", "latch://approve/a1#s=x"
        ] {
            #expect(throws: ApprovalLinkError.otherServer, "\(text)") { try ApprovalLink(text, issuer: Self.issuer) }
        }
    }

    @Test("43.3 the issuer's other URLs, or a link without id or secret, are not approval links")
    func test_43_3_malformedLinksAreRefused() {
        for text in [
            "https://auth.example.com/approve/a1", "https://auth.example.com/approve/#s=x",
            "https://auth.example.com/approve/a1#s=", "https://auth.example.com/approve/a1/b#s=x",
            "https://auth.example.com/other/a1#s=x", "https://auth.example.com/approve/a1?s=x",
            "https://auth.example.com/approve/a1#s=x&t=y", "not a url"
        ] {
            #expect(throws: ApprovalLinkError.notAnApprovalLink, "\(text)") {
                try ApprovalLink(text, issuer: Self.issuer)
            }
        }
    }

    // MARK: - Polling (RFC 8628 §3.5)

    @Test("43.3 authorization_pending polls again at the interval; slow_down adds 5 s for good")
    func test_43_3_pendingAndSlowDown() {
        let start = Date(timeIntervalSince1970: 1_000)
        var schedule = ApprovalPollSchedule(interval: 5, expiresIn: 120, now: start)

        #expect(schedule.answered(.pending, now: start.addingTimeInterval(1)) == .pollAgain(afterSeconds: 5))
        // Too fast: 5 more seconds, and they stay.
        #expect(schedule.answered(.slowDown, now: start.addingTimeInterval(6)) == .pollAgain(afterSeconds: 10))
        #expect(schedule.answered(.pending, now: start.addingTimeInterval(16)) == .pollAgain(afterSeconds: 10))
        #expect(schedule.answered(.slowDown, now: start.addingTimeInterval(26)) == .pollAgain(afterSeconds: 15))
        #expect(schedule.interval == 15)
    }

    @Test("43.3 access_denied, an ended verification and expired_token stop polling")
    func test_43_3_denialAndExpiryStop() {
        let start = Date(timeIntervalSince1970: 1_000)
        var schedule = ApprovalPollSchedule(interval: 5, expiresIn: 120, now: start)

        #expect(schedule.answered(.denied, now: start) == .stop(.denied))
        #expect(schedule.answered(.ended, now: start) == .stop(.ended))
        #expect(schedule.answered(.expired, now: start) == .stop(.expired))
        // Past the deadline a pending answer stops too: the approval is over on the server.
        #expect(schedule.answered(.pending, now: start.addingTimeInterval(120)) == .stop(.expired))
    }

    @Test("43.3 the token endpoint's refusals read by their RFC 8628 code in reasons; anything else is thrown")
    func test_43_3_tokenRefusalsAreRead() {
        func refusal(_ code: String, _ reason: String, status: Int = 400) -> LatchClientError {
            .server(LatchServerError(status: status, rawCode: code, message: "m", reasons: [reason]))
        }
        #expect(ApprovalPollSchedule.answer(to: refusal("VERIFICATION_REQUIRED", "authorization_pending")) == .pending)
        #expect(ApprovalPollSchedule.answer(to: refusal("RATE_LIMITED", "slow_down")) == .slowDown)
        #expect(ApprovalPollSchedule.answer(to: refusal("VERIFICATION_INVALID", "access_denied")) == .denied)
        #expect(ApprovalPollSchedule.answer(to: refusal("AUTH_003", "expired_token")) == .expired)
        #expect(ApprovalPollSchedule.answer(to: refusal("RATE_LIMITED", "slow_down", status: 429)) == nil)
        #expect(ApprovalPollSchedule.answer(to: LatchClientError.network(URLError(.timedOut))) == nil)
    }

    @Test("43.3 a polled verification: pending polls, approved with the token ends, denied/ended/expired stop")
    func test_43_3_verificationStatesAreRead() {
        func details(_ state: PhoneVerificationDetails.State, token: String? = nil) -> PhoneVerificationDetails {
            PhoneVerificationDetails(
                verificationId: "v1", action: "withdrawal", parameters: [:], state: state,
                expiresAt: Date(timeIntervalSince1970: 2_000), verificationToken: token)
        }
        #expect(ApprovalPollSchedule.answer(to: details(.pending)) == .pending)
        #expect(ApprovalPollSchedule.answer(to: details(.approved, token: "vt")) == nil)
        // Approved, but the token was collected already (only once): over.
        #expect(ApprovalPollSchedule.answer(to: details(.approved)) == .expired)
        #expect(ApprovalPollSchedule.answer(to: details(.denied)) == .denied)
        #expect(ApprovalPollSchedule.answer(to: details(.ended)) == .ended)
        #expect(ApprovalPollSchedule.answer(to: details(.expired)) == .expired)
    }

    // MARK: - The push

    @Test("43.3 the push's custom data names the verification; other pushes are not Latch's")
    func test_43_3_pushPayloadIsParsed() {
        let payload = Data(
            #"{"aps":{"alert":"Approve a withdrawal in Latch"},"latch":{"kind":"verification","verification_id":"0b4e-77"}}"#
                .utf8)

        #expect(ApprovalPush(payload: payload) == ApprovalPush(verificationID: "0b4e-77"))
        #expect(
            ApprovalPush(userInfo: ["latch": ["kind": "verification", "verification_id": "0b4e-77"]])
                == ApprovalPush(verificationID: "0b4e-77"))
        #expect(ApprovalPush(userInfo: ["latch": ["kind": "sign_in", "verification_id": "0b4e-77"]]) == nil)
        #expect(ApprovalPush(userInfo: ["latch": ["kind": "verification"]]) == nil)
        #expect(
            ApprovalPush(userInfo: ["latch": ["kind": "verification", "verification_id": "../../me/freeze"]]) == nil)
        #expect(ApprovalPush(userInfo: ["aps": ["alert": "hi"]]) == nil)
        #expect(ApprovalPush(payload: Data("not json".utf8)) == nil)
    }

    @Test("43.3 the APNs device token goes as lowercase hex")
    func test_43_3_deviceTokenIsHex() {
        #expect(PushDeviceToken.hex(Data([0x00, 0x0f, 0xa0, 0xff])) == "000fa0ff")
        #expect(PushDeviceToken.hex(Data()) == "")
    }

    // MARK: - Wire

    @Test("43.3 the phone's attempt carries the number; its pass answers approved without a token")
    func test_43_3_phoneAttemptWire() throws {
        let attempt = NumberedVerificationAttempt(
            attempt: VerificationAttempt(method: .biometric, credentialId: "c1", signature: "sig"), number: "42")
        let body = try JSONSerialization.jsonObject(with: APIJSON.encoder().encode(attempt)) as? [String: Any]

        #expect(body?["number"] as? String == "42")
        #expect(body?["method"] as? String == "biometric")
        #expect(body?["credential_id"] as? String == "c1")
        #expect(
            try APIJSON.decoder().decode(PhoneAttemptAnswer.self, from: Data(#"{"approved":true}"#.utf8)) == .approved)
        #expect(
            try APIJSON.decoder().decode(
                PhoneAttemptAnswer.self, from: Data(#"{"verification_token":"vt","expires_in":300}"#.utf8))
                == .passed(VerificationPassed(verificationToken: "vt", expiresIn: 300)))
    }

    @Test("43.3 a verification started with approve_on device reads its number and interval")
    func test_43_3_phoneApprovalStartedWire() throws {
        let json = #"""
            {"verification_id":"v1","methods":[{"type":"fund_password"}],"preferred":"fund_password",
             "expires_in":300,"number":"07","interval":5}
            """#
        let started = try APIJSON.decoder().decode(PhoneApprovalStarted.self, from: Data(json.utf8))

        #expect(started.verification.verificationId == "v1")
        #expect(started.number == "07")
        #expect(started.interval == 5)
        let request =
            try JSONSerialization.jsonObject(
                with: APIJSON.encoder().encode(PhoneApprovedVerificationRequest(action: "withdrawal", parameters: [:])))
            as? [String: Any]
        #expect(request?["approve_on"] as? String == "device")
    }
}
