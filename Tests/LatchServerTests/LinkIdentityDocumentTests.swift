import Foundation
import LatchCore
import LatchTestSupport
import NIOHTTP1
import Testing

/// Issue 10 §5: the OpenAPI document and the validation agree on `POST /v1/me/identities`. The fuzzer
/// found schema-valid link bodies refused as `missing` while the document had one loose schema for all
/// providers; the document now has one body per provider (`LinkIdentityRequest.oneOf`), and this test
/// holds each to what the server requires.
@Suite("OpenAPI document: link bodies per provider (issue 10 §5)")
struct LinkIdentityDocumentTests {
    /// A body for each documented variant holding exactly its required fields, with values the server
    /// accepts as well-formed (none of them proves anything: the proofs are wrong or unknown).
    static let samples: [String: [String: String]] = [
        "LinkEmailRequest": ["provider": "email", "email": "carol@example.com", "password": "Correct-Horse-9"],
        "LinkEmailCodeRequest": ["provider": "email", "email": "carol@example.com", "code": "123456"],
        "LinkAppleRequest": ["provider": "apple", "identity_token": "not-a-jwt"],
        "LinkWeChatRequest": ["provider": "wechat", "code": "UNKNOWN-CODE"],
        "LinkPhoneRequest": ["provider": "phone", "phone": "+8613900139000", "code": "123456"]
    ]

    @Test(
        "Issue 10 §5: a link body with its provider's documented required fields is never refused as invalid, and one lacking any of them is",
        arguments: TestDatabase.all)
    func test_10_linkBodiesRequireWhatTheDocumentRequires(database: TestDatabase) async throws {
        try await withProviders(database) { server, _ in
            let document = try await server.send(.GET, "/openapi.json").json
            let schemas = try #require((document["components"] as? [String: Any])?["schemas"] as? [String: Any])
            let link = try #require(schemas["LinkIdentityRequest"] as? [String: Any])
            let variants = try #require(link["oneOf"] as? [[String: Any]]).compactMap {
                ($0["$ref"] as? String)?.split(separator: "/").last.map(String.init)
            }
            #expect(Set(variants) == Set(Self.samples.keys), "one documented body per provider (email in two calls)")

            // A phone-only account, so the email variants are allowed (an account adds an email only without one).
            _ = try await PhoneSignInTests.requestCode(server)
            let phoneUser = try await PhoneSignInTests.smsSignIn(
                server, code: try await PhoneSignInTests.textedCode(server)
            )
            .decode(TokenResponse.self)

            for name in variants {
                let schema = try #require(schemas[name] as? [String: Any])
                let required = Set(schema["required"] as? [String] ?? [])
                let sample = try #require(Self.samples[name])
                #expect(
                    Set(sample.keys) == required, "\(name): the sample holds exactly the documented required fields")

                let complete = try await server.send(
                    .POST, "/v1/me/identities", json: sample, bearer: phoneUser.accessToken)
                #expect(
                    complete.errorCode != "VALIDATION_FAILED" && complete.status != 500,
                    "\(name), complete: \(complete.status) \(complete.text)")

                for field in required.subtracting(["provider"]).sorted() {
                    var lacking = sample
                    lacking[field] = nil
                    let answer = try await server.send(
                        .POST, "/v1/me/identities", json: lacking, bearer: phoneUser.accessToken)
                    // 400 `missing` as a rule; the email calls answer 422 (`invalid_email`, `missing` password),
                    // and an email call without `code` is a first call, which then lacks `password`.
                    #expect(
                        [400, 422].contains(answer.status) && answer.errorCode == "VALIDATION_FAILED",
                        "\(name) without \(field): \(answer.status) \(answer.text)")
                }
            }
        }
    }
}
