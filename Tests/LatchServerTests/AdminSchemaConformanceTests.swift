import Foundation
import LatchCore
import LatchTestSupport
import NIOHTTP1
import Testing

/// Issue 14 §6: the admin API's answers (which the fuzzer cannot reach: its run has no admin key)
/// conform to their schemas in `openapi.json`, checked closed (no member the schema does not declare),
/// on a user with every kind of detail: sessions, a device key, TOTP, a fund password, a lock, audit entries.
@Suite("Admin answers against openapi.json (issue 14 §6)")
struct AdminSchemaConformanceTests {
    @Test(
        "test_I14 the admin user page, user detail, audit page and a refusal match their documented schemas",
        arguments: TestDatabase.all)
    func test_I14_adminAnswersMatchTheirSchemas(database: TestDatabase) async throws {
        try await AdminTests.withAdminServer(database) { server in
            let tokens = try await server.signUp()
            try await server.setFundPassword(bearer: tokens.accessToken)
            let enrolled = try await server.send(.POST, "/v1/mfa/totp", body: nil, bearer: tokens.accessToken)
            let secret = try #require(Base32.decode(try enrolled.decode(TOTPEnrollment.self).secret))
            let activated = try await server.send(
                .POST, "/v1/mfa/totp/activate", json: ["code": TOTP(secret: secret).code(at: server.clock.now)],
                bearer: tokens.accessToken)
            try #require(activated.status == 200, "\(activated.text)")
            _ = try await server.bindDevice(DeviceKey(), bearer: tokens.accessToken)
            for action in ["disable", "enable"] { // audit entries (disabling also ends the sessions)
                let answer = try await server.send(
                    .POST, "/v1/admin/users/\(tokens.user.id)/\(action)", body: nil, bearer: AdminTests.adminKey)
                try #require(answer.status == 204, "\(action): \(answer.text)")
            }
            // A session: the disable's security reset forgot the known devices, so the TOTP confirms it.
            server.clock.advance(by: 30)
            let challenged = try await server.signIn()
            try #require(challenged.status == 403 && challenged.errorBody?.method == "totp", "\(challenged.text)")
            let signedIn = try await server.send(
                .POST, "/v1/token",
                json: [
                    "grant_type": "login_challenge", "challenge_id": try #require(challenged.errorBody?.challengeId),
                    "code": TOTP(secret: secret).code(at: server.clock.now)
                ])
            try #require(signedIn.status == 200, "\(signedIn.text)")
            for _ in 0..<5 { _ = try await server.signIn(password: "Wrong-Horse-1") } // a lock

            let validator = try WireSchemaConformanceTests.validator()
            let answers: [(schema: String, path: String, bearer: String, status: UInt)] = [
                ("AdminUserPage", "/v1/admin/users?q=alice", AdminTests.adminKey, 200),
                ("AdminUserDetail", "/v1/admin/users/\(tokens.user.id)", AdminTests.adminKey, 200),
                ("AdminAuditPage", "/v1/admin/audit", AdminTests.adminKey, 200),
                ("Error", "/v1/admin/audit", "not-an-admin-key", 401)
            ]
            for expected in answers {
                let answer = try await server.send(.GET, expected.path, bearer: expected.bearer)
                try #require(answer.status == expected.status, "\(expected.path): \(answer.text)")
                let json = try JSONSerialization.jsonObject(with: answer.data)
                let schema = try #require(validator.schema(named: expected.schema))
                let problems = validator.problems(json, against: schema)
                #expect(
                    problems.isEmpty,
                    "\(expected.path) → \(expected.schema): \(answer.text)\n\(problems.joined(separator: "\n"))")
            }
        }
    }
}
