import Foundation
import LatchCore
import LatchTestSupport
import NIOCore
import NIOHTTP1
import Testing

@testable import LatchServer

/// Issue 19 §4: the anti-phishing code the user chooses is shown in a fixed, labelled place of every
/// mail latchd sends that user (text and HTML), never in mails to an address without an account, and
/// changing it is a security notice.
@Suite("Anti-phishing code (issue 19 §4)")
struct AntiPhishingCodeTests {
    static let label = "防钓鱼码 / Anti-phishing code: "

    @Test(
        "19 §4 set with a recent sign-in: every later mail to the user shows it first in both parts; a registration mail to a new address never does; removing it stops it",
        arguments: TestDatabase.all)
    func test_19_4_codeInEveryMailToTheUser(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let tokens = try await server.signUp()

            let set = try await server.send(
                .PUT, "/v1/me/anti-phishing-code", json: ["code": "龙猫-Totoro"], bearer: tokens.accessToken)
            #expect(set.status == 204, "\(set.text)")
            #expect(
                try await server.send(.POST, "/v1/password/forgot", json: ["email": "alice@example.com"]).status == 202)
            _ = try await server.send(
                .POST, "/v1/registrations",
                json: ["email": "bob@example.com", "password": "Correct-Horse-9", "terms_accepted": true])
            let status = try await server.send(.GET, "/v1/me/security", bearer: tokens.accessToken)

            #expect(try status.decode(AccountSecurityStatus.self).antiPhishingCode == "龙猫-Totoro", "\(status.text)")
            let mails = await server.mails()
            let notice = try #require(mails.first { $0.subject == "A security setting of your Latch account changed" })
            let resetCode = try #require(mails.last { $0.subject.hasPrefix("Your Latch password reset code") })
            for mail in [notice, resetCode] {
                #expect(mail.body.hasPrefix(Self.label + "龙猫-Totoro\n\n"), "the first paragraph: \(mail.body)")
                let html = try #require(mail.html)
                let firstParagraph = try #require(html.range(of: "<p style=\"margin:0 0 16px 0;"))
                #expect(
                    html[firstParagraph.lowerBound...].contains(Self.label + "龙猫-Totoro"),
                    "the HTML shows it in the first paragraph after the header: \(html)")
            }
            #expect(
                notice.body.contains("/account#freeze="), "changing the code is a security notice with a freeze link")
            let toBob = await server.mails(to: "bob@example.com")
            #expect(toBob.count == 1 && !toBob[0].body.contains("Anti-phishing"), "no account at that address")
            let events = try await server.eventTypes(bearer: tokens.accessToken)
            #expect(events.contains("anti_phishing_code_changed"))

            let removed = try await server.send(.DELETE, "/v1/me/anti-phishing-code", bearer: tokens.accessToken)
            server.clock.advance(by: 61)
            _ = try await server.send(.POST, "/v1/password/forgot", json: ["email": "alice@example.com"])
            #expect(removed.status == 204, "\(removed.text)")
            let last = try #require(await server.mails().last)
            #expect(last.subject.hasPrefix("Your Latch password reset code") && !last.body.contains("Anti-phishing"))
        }
    }

    @Test(
        "19 §4 the code is 4–20 visible characters (else 422 naming code); a stale session needs a set_anti_phishing_code proof (else 403 VERIFICATION_REQUIRED)",
        arguments: TestDatabase.all)
    func test_19_4_validationAndRecency(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let tokens = try await server.signUp()
            try await server.setFundPassword(bearer: tokens.accessToken)
            for (code, reason) in [
                ("abc", "too_short"), (String(repeating: "x", count: 21), "too_long"),
                ("ab cd", "invisible_characters"),
                ("abc\u{200B}d", "invisible_characters"), ("abc\nd", "invisible_characters"),
                ("ab\u{0007}cd", "invisible_characters")
            ] {
                let refused = try await server.send(
                    .PUT, "/v1/me/anti-phishing-code", json: ["code": code], bearer: tokens.accessToken)
                #expect(
                    refused.status == 422 && refused.errorCode == "VALIDATION_FAILED"
                        && refused.errorBody?.field == "code" && refused.reasons == [reason],
                    "\(code.debugDescription): \(refused.text)")
            }
            let wrongType = try await server.send(
                .PUT, "/v1/me/anti-phishing-code", json: ["code": 1234], bearer: tokens.accessToken)
            #expect(wrongType.status == 400 && wrongType.errorBody?.field == "code", "\(wrongType.text)")
            #expect(
                try await server.send(
                    .PUT, "/v1/me/anti-phishing-code", json: ["code": "Ok-Code-20-chars-xyz"],
                    bearer: tokens.accessToken
                ).status
                    == 204, "20 characters are fine")

            server.clock.advance(by: 601)
            let stale = try await server.send(
                .PUT, "/v1/me/anti-phishing-code", json: ["code": "Later-1"], bearer: tokens.accessToken)
            let staleDelete = try await server.send(.DELETE, "/v1/me/anti-phishing-code", bearer: tokens.accessToken)
            let proof = try await server.verificationToken(
                "set_anti_phishing_code", parameters: [:], bearer: tokens.accessToken)
            let proven = try await server.send(
                .PUT, "/v1/me/anti-phishing-code", json: ["code": "Later-1", "verification_token": proof],
                bearer: tokens.accessToken)

            #expect(stale.status == 403 && stale.errorCode == "VERIFICATION_REQUIRED", "\(stale.text)")
            #expect(staleDelete.status == 403 && staleDelete.errorCode == "VERIFICATION_REQUIRED")
            #expect(proven.status == 204, "\(proven.text)")
            let status = try await server.send(.GET, "/v1/me/security", bearer: tokens.accessToken)
            // A session that signed in long ago sees the code masked (issue 28 §2).
            #expect(try status.decode(AccountSecurityStatus.self).antiPhishingCode == "L•••••1", "\(status.text)")
        }
    }

    @Test("19 §4 the server checks the code with the very pattern and lengths the OpenAPI document states")
    func test_19_4_documentAndServerAgree() throws {
        let validator = try WireSchemaConformanceTests.validator()
        let schema = try #require(validator.schema(named: "AntiPhishingCodeUpdate"))
        let code = try #require((schema["properties"] as? [String: Any])?["code"] as? [String: Any])
        #expect(code["pattern"] as? String == AntiPhishingCode.pattern)
        #expect(code["minLength"] as? Int == AntiPhishingCode.lengths.lowerBound)
        #expect(code["maxLength"] as? Int == AntiPhishingCode.lengths.upperBound)
        for accepted in ["Blue-Fox-42", "龙猫-Totoro", "e\u{301}e\u{301}", "🦊🦊🦊🦊"] {
            #expect(throws: Never.self, "\(accepted)") { try AntiPhishingCode.validated(accepted) }
        }
    }

    @Test(
        "19 new endpoints answer bad input in the error format, never 5xx: /v1/freeze, /v1/me/freeze, /v1/me/anti-phishing-code, /v1/me/security, the admin freeze and hold routes",
        arguments: TestDatabase.all)
    func test_19_badInput(database: TestDatabase) async throws {
        try await AdminTests.withAdminServer(database) { server in
            let tokens = try await server.signUp()
            let bearer = tokens.accessToken
            let cases: [(BadRequest, UInt, String)] = [
                (BadRequest(.POST, "/v1/freeze"), 400, "MALFORMED_BODY"),
                (BadRequest(.POST, "/v1/freeze", body: "{}"), 400, "VALIDATION_FAILED"),
                (BadRequest(.POST, "/v1/freeze", body: #"{"token": 5}"#), 400, "VALIDATION_FAILED"),
                (BadRequest(.POST, "/v1/freeze", body: #"{"token": ""}"#), 422, "VALIDATION_FAILED"),
                (
                    BadRequest(.POST, "/v1/freeze", body: #"{"token": "\#(String(repeating: "a", count: 129))"}"#), 422,
                    "VALIDATION_FAILED"
                ),
                (BadRequest(.POST, "/v1/freeze", body: "{"), 400, "MALFORMED_BODY"),
                (
                    BadRequest(.POST, "/v1/freeze", body: #"{"token": "x"}"#, contentType: "text/plain"), 415,
                    "UNSUPPORTED_MEDIA_TYPE"
                ),
                (BadRequest(.POST, "/v1/me/freeze"), 401, "AUTH_004"),
                (BadRequest(.POST, "/v1/me/freeze", body: "[]", bearer: bearer), 400, "VALIDATION_FAILED"),
                (BadRequest(.POST, "/v1/me/freeze", body: "{", bearer: bearer), 400, "MALFORMED_BODY"),
                (BadRequest(.GET, "/v1/me/security"), 401, "AUTH_004"),
                (BadRequest(.PUT, "/v1/me/anti-phishing-code", bearer: bearer), 400, "MALFORMED_BODY"),
                (BadRequest(.PUT, "/v1/me/anti-phishing-code", body: "{}", bearer: bearer), 400, "VALIDATION_FAILED"),
                (
                    BadRequest(.PUT, "/v1/me/anti-phishing-code", body: #"{"code": null}"#, bearer: bearer), 400,
                    "VALIDATION_FAILED"
                ),
                (
                    BadRequest(
                        .DELETE, "/v1/me/anti-phishing-code", body: #"{"verification_token": 1}"#, bearer: bearer), 400,
                    "VALIDATION_FAILED"
                ),
                (BadRequest(.POST, "/v1/admin/users/not-a-user/freeze", bearer: AdminTests.adminKey), 404, "NOT_FOUND"),
                (
                    BadRequest(.POST, "/v1/admin/users/\(UUID())/unfreeze", bearer: AdminTests.adminKey), 404,
                    "NOT_FOUND"
                ),
                (BadRequest(.DELETE, "/v1/admin/users/%00/hold", bearer: AdminTests.adminKey), 404, "NOT_FOUND"),
                (BadRequest(.POST, "/v1/admin/users/\(tokens.user.id)/freeze"), 401, "AUTH_004")
            ]
            for (request, status, code) in cases {
                let answer = try await request.send(to: server, language: "zh-Hans")
                #expect(
                    answer.status == status && answer.errorCode == code, "\(request): \(answer.status) \(answer.text)")
                #expect(answer.errorBody?.message.isEmpty == false, "\(request): \(answer.text)")
            }
            #expect(try await server.send(.GET, "/v1/me", bearer: bearer).status == 200, "nothing froze the account")
        }
    }
}
