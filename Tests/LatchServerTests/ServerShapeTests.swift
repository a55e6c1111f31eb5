import FluentKit
import Foundation
import HTTPTypes
import LatchCore
import LatchTestSupport
import NIOHTTP1
import Testing

@testable import LatchServer

/// Issue 22 §1 and §2: request bodies with variants are parsed once at the edge (`Grant`, `Answer`),
/// a missing field is always 400 `missing` naming it, sign-in providers are one enum, and passkeys,
/// the ways to sign in and the user's row lock each have one place.
@Suite("Issue 22 server shape")
struct ServerShapeTests {
    /// A complete body of every grant, with the fields its `Grant` case must carry.
    static let grants: [(TokenRequest, required: [String])] = [
        (TokenRequest(grantType: .password, email: "a@example.com", password: "pw"), ["email", "password"]),
        (TokenRequest(grantType: .refreshToken, refreshToken: "r"), ["refresh_token"]),
        (TokenRequest(grantType: .deviceSignature, challengeId: "c", signature: "s"), ["challenge_id", "signature"]),
        (TokenRequest(grantType: .loginChallenge, challengeId: "c", code: "123456"), ["challenge_id", "code"]),
        (TokenRequest(grantType: .apple, identityToken: "a.b.c"), ["identity_token"]),
        (TokenRequest(grantType: .wechat, code: "CODE"), ["code"]),
        (TokenRequest(grantType: .smsCode, code: "123456", phone: "+8613800138000"), ["phone", "code"]),
        (
            TokenRequest(
                grantType: .passkey, challengeId: "c",
                credential: AuthenticationResponseJSON(
                    id: "AQ", rawId: "AQ",
                    response: .init(clientDataJSON: "e30", authenticatorData: "AA", signature: "AA"))),
            ["challenge_id", "credential"]
        ),
        (TokenRequest(grantType: .approval, approvalId: "a", pollSecret: "p"), ["approval_id", "poll_secret"])
    ]

    /// `body` without `field`.
    static func lacking(_ field: String, _ body: TokenRequest) -> TokenRequest {
        var body = body
        switch field {
        case "email": body.email = nil
        case "password": body.password = nil
        case "refresh_token": body.refreshToken = nil
        case "challenge_id": body.challengeId = nil
        case "signature": body.signature = nil
        case "code": body.code = nil
        case "identity_token": body.identityToken = nil
        case "phone": body.phone = nil
        case "credential": body.credential = nil
        case "approval_id": body.approvalId = nil
        case "poll_secret": body.pollSecret = nil
        default: Issue.record("no such field \(field)")
        }
        return body
    }

    @Test("test_22_1 every grant parses into its own Grant case, and each missing field is 400 missing naming it")
    func test_22_1_grantParsesOnce() throws {
        #expect(Set(Self.grants.map(\.0.grantType)) == Set(TokenRequest.GrantType.allCases), "every grant is covered")
        for (body, required) in Self.grants {
            let grant = try Grant(body)
            let parsed: TokenRequest.GrantType =
                switch grant {
                case .password(let email, let password, _):
                    email.value == "a@example.com" && password == "pw" ? .password : .refreshToken
                case .refresh(let token): token == "r" ? .refreshToken : .password
                case .deviceSignature(let challenge, let signature, _, _):
                    challenge == "c" && signature == "s" ? .deviceSignature : .password
                case .loginChallenge(let challenge, let code):
                    challenge == "c" && code == "123456" ? .loginChallenge : .password
                case .apple(let proof, _): proof.identityToken == "a.b.c" ? .apple : .password
                case .wechat(let code, _): code == "CODE" ? .wechat : .password
                case .sms(let phone, let code, _):
                    phone.value == "+8613800138000" && code == "123456" ? .smsCode : .password
                case .passkey(let challenge, _, _): challenge == "c" ? .passkey : .password
                case .approval(let approval, let secret): approval == "a" && secret == "p" ? .approval : .password
                }
            #expect(parsed == body.grantType, "\(body.grantType) carries its fields")
            for field in required {
                let refusal = #expect(throws: LatchError.self) { try Grant(Self.lacking(field, body)) }
                #expect(
                    refusal?.status.code == 400 && refusal?.code == .validationFailed && refusal?.field == field
                        && refusal?.reasons == ["missing"],
                    "\(body.grantType) without \(field): \(String(describing: refusal))")
            }
        }
    }

    @Test("test_22_1 an empty code, identity token or sms code is missing too; a present but bad one is 422")
    func test_22_1_grantEmptyAndBadFields() throws {
        let emptyCode = #expect(throws: LatchError.self) {
            try Grant(TokenRequest(grantType: .loginChallenge, challengeId: "c", code: ""))
        }
        #expect(emptyCode?.status.code == 400 && emptyCode?.field == "code" && emptyCode?.reasons == ["missing"])
        let emptyToken = #expect(throws: LatchError.self) {
            try Grant(TokenRequest(grantType: .apple, identityToken: ""))
        }
        #expect(emptyToken?.status.code == 400 && emptyToken?.field == "identity_token")
        let longCode = #expect(throws: LatchError.self) {
            try Grant(
                TokenRequest(grantType: .loginChallenge, challengeId: "c", code: String(repeating: "1", count: 65)))
        }
        #expect(longCode?.status.code == 422 && longCode?.reasons == ["too_long"])
        let badEmail = #expect(throws: LatchError.self) {
            try Grant(TokenRequest(grantType: .password, email: "not an address", password: "pw"))
        }
        #expect(badEmail?.status.code == 422 && badEmail?.reasons == ["invalid_email"])
        let badSMSCode = #expect(throws: LatchError.self) {
            try Grant(TokenRequest(grantType: .smsCode, code: "12ab56", phone: "+8613800138000"))
        }
        #expect(badSMSCode?.status.code == 422 && badSMSCode?.reasons == ["six_digits"])
    }

    @Test(
        "test_22_1 every verification attempt parses into its Answer, and each missing field is 400 missing naming it")
    func test_22_1_answerParsesOnce() throws {
        let credentialID = UUID().uuidString
        let samples: [(VerificationAttempt, required: [String])] = [
            (
                VerificationAttempt(method: .biometric, credentialId: credentialID, signature: "sig"),
                ["credential_id", "signature"]
            ),
            (
                VerificationAttempt(
                    method: .passkey,
                    credential: AuthenticationResponseJSON(
                        id: "AQ", rawId: "AQ",
                        response: .init(clientDataJSON: "e30", authenticatorData: "AA", signature: "AA"))),
                ["credential"]
            ),
            (VerificationAttempt(method: .totp, code: "123456"), ["code"]),
            (VerificationAttempt(method: .fundPassword, fundPassword: "246810"), ["fund_password"]),
            (VerificationAttempt(method: .emailCode, code: "135790"), ["code"])
        ]
        #expect(Set(samples.map(\.0.method)) == Set(VerificationMethodKind.allCases), "every method is covered")
        for (body, required) in samples {
            let answer = try Answer(body)
            #expect(answer.method == body.method)
            switch answer {
            case .biometric(let id, let signature, _):
                #expect(id.uuidString == credentialID && signature == "sig")
            case .passkey(let credential): #expect(credential.rawId == "AQ")
            case .totp(let code): #expect(code == "123456")
            case .fundPassword(let candidate): #expect(candidate == "246810")
            case .emailCode(let code): #expect(code == "135790")
            }
            for field in required {
                var lacking = body
                switch field {
                case "credential_id": lacking.credentialId = nil
                case "signature": lacking.signature = nil
                case "credential": lacking.credential = nil
                case "code": lacking.code = nil
                case "fund_password": lacking.fundPassword = nil
                default: Issue.record("no such field \(field)")
                }
                let refusal = #expect(throws: LatchError.self) { try Answer(lacking) }
                #expect(
                    refusal?.status.code == 400 && refusal?.field == field && refusal?.reasons == ["missing"],
                    "\(body.method) without \(field): \(String(describing: refusal))")
            }
        }
    }

    @Test("test_22_1 SignInProvider is exactly the providers the OpenAPI document names for identities")
    func test_22_1_signInProviderMatchesTheDocument() async throws {
        var document: [String: Any] = [:]
        try await withServer(.sqlite) { server in document = try await server.send(.GET, "/openapi.json").json }
        let schemas = try #require((document["components"] as? [String: Any])?["schemas"] as? [String: Any])
        let identity = try #require(schemas["Identity"] as? [String: Any])
        let provider = try #require((identity["properties"] as? [String: Any])?["provider"] as? [String: Any])
        #expect(provider["enum"] as? [String] == SignInProvider.allCases.map(\.rawValue))
        #expect(SignInProvider.allCases.filter(\.isLinkedIdentity) == [.apple, .wechat, .phone])
        let info = IdentityInfo(
            provider: .phone, identifier: "+8613800138000", linkedAt: Date(timeIntervalSince1970: 0))
        #expect(info.provider == "phone" && info.signInProvider == .phone)
        #expect(IdentityInfo(provider: "later", identifier: nil, linkedAt: Date()).signInProvider == nil)
    }

    @Test(
        "test_22_2 User.waysToSignIn counts the email, identities and passkeys; PasskeyStore never removes the last",
        arguments: TestDatabase.all)
    func test_22_2_waysToSignInAndPasskeyStore(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let db = server.app.db
            let store = server.app.latch.passkeys
            let user = User(email: nil, emailVerified: false, passwordHash: nil, nickname: nil, createdAt: 0)
            try await user.create(on: db)
            let userID = try user.requireID()
            #expect(try await User.waysToSignIn(of: userID, accounts: server.app.latch.accounts, on: db) == 0)
            #expect(
                try await User.waysToSignIn(of: UUID(), accounts: server.app.latch.accounts, on: db) == 0,
                "no account, no way")

            try await Identity(userID: userID, provider: .phone, subject: "+8613800138000", email: nil, createdAt: 1)
                .create(on: db)
            let first = Self.passkey(of: userID, credential: "Y3JlZC0x", at: 2)
            let second = Self.passkey(of: userID, credential: "Y3JlZC0y", at: 3)
            try await store.insert(first, on: db)
            try await store.insert(second, on: db)
            #expect(try await user.waysToSignIn(on: db) == 3)
            #expect(try await store.all(of: userID, on: db).map(\.credentialID) == ["Y3JlZC0x", "Y3JlZC0y"])
            #expect(try await store.find(rawID: "Y3JlZC0y", on: db)?.id == second.id)
            #expect(try await store.find(rawID: "not base64url!", on: db) == nil)
            #expect(
                try await store.find(try first.requireID(), of: UUID(), on: db) == nil, "another user's is not found")

            let again = Self.passkey(of: userID, credential: "Y3JlZC0x", at: 4)
            let duplicate = await #expect(throws: LatchError.self) { try await store.insert(again, on: db) }
            #expect(duplicate?.code == .conflict && duplicate?.reasons == ["credential_exists"])

            #expect(try await store.remove(first, on: db))
            #expect(try await server.app.latch.identities.unlink(.phone, of: userID, on: db).isRemoved)
            #expect(try await store.remove(second, on: db) == false, "the last way to sign in stays")
            #expect(try await user.waysToSignIn(on: db) == 1)
        }
    }

    @Test(
        "test_22_2 two removals of an account's last two ways at once leave one (the user row lock)",
        arguments: TestDatabase.all)
    func test_22_2_concurrentRemovalsKeepOneWay(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let db = server.app.db
            let latch = server.app.latch
            let user = User(
                email: "two@example.com", emailVerified: true, passwordHash: nil, nickname: nil, createdAt: 0)
            try await user.create(on: db)
            let userID = try user.requireID()
            let passkey = Self.passkey(of: userID, credential: "Y3JlZC0z", at: 1)
            try await latch.passkeys.insert(passkey, on: db)

            async let passkeyGone = latch.passkeys.remove(passkey, on: db)
            async let emailGone = latch.identities.unlink(.email, of: userID, on: db)
            let (removedPasskey, unlinked) = try await (passkeyGone, emailGone)
            #expect(removedPasskey != unlinked.isRemoved, "exactly one of the two went")
            #expect(try await User.waysToSignIn(of: userID, accounts: server.app.latch.accounts, on: db) == 1)
        }
    }

    /// A passkey row for the store (its key is never checked here).
    static func passkey(of user: UUID, credential: String, at time: Double) -> Passkey {
        let passkey = Passkey()
        passkey.id = UUID()
        passkey.userID = user
        passkey.credentialID = credential
        passkey.publicKey = "key"
        passkey.name = "Passkey"
        passkey.transports = ""
        passkey.signCount = 0
        passkey.backupEligible = false
        passkey.backedUp = false
        passkey.attestation = "none"
        passkey.aaguid = ""
        passkey.createdAt = time
        return passkey
    }
}

extension IdentityStore.UnlinkOutcome {
    /// Whether the way was removed.
    var isRemoved: Bool {
        if case .removed = self { return true }
        return false
    }
}
