import Foundation
import LatchCore
import LatchServer
import LatchTestSupport
import NIOHTTP1
import Testing

/// C8 abnormal sign-in: a sign-in from a device id the account has not used (other than its first)
/// is mailed about, and with "verify unusual sign-ins" on it needs a code (grant `login_challenge`).
@Suite("New-device sign-in (C8)")
struct NewDeviceTests {
    static let phone = ["id": "phone-1", "name": "Alice's iPhone", "model": "iPhone16,1", "platform": "iOS"]
    static let laptop = ["id": "laptop-2", "name": "Alice's MacBook", "model": "Mac15,3", "platform": "macOS"]

    static func isNewDeviceNotice(_ mail: OutgoingMessage) -> Bool {
        mail.subject.localizedCaseInsensitiveContains("new sign-in")
    }

    static func code(differentFrom code: String) -> String { code == "000000" ? "000001" : "000000" }

    static func loginChallenge(_ server: TestServer, challengeID: String, code: String) async throws -> TestResponse {
        try await server.send(
            .POST, "/v1/token", json: ["grant_type": "login_challenge", "challenge_id": challengeID, "code": code])
    }

    @Test(
        "C8 the account's first device and known devices sign in without a challenge or a notice",
        arguments: TestDatabase.all)
    func C8_firstAndKnownDevicesPass(database: TestDatabase) async throws {
        try await withServer(database) { server in
            try await server.signUp(device: Self.phone)
            let mailsBefore = await server.mails().count

            let first = try await server.signIn(device: Self.phone)
            let again = try await server.signIn(device: Self.phone)

            #expect(first.status == 200, "\(first.text)")
            #expect(again.status == 200, "\(again.text)")
            #expect(await server.mails().count == mailsBefore, "no mail for the first or a known device")
        }
    }

    @Test("C8 the device id given at registration is the account's first device", arguments: TestDatabase.all)
    func C8_registrationDeviceIsFirst(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let registered = try await server.send(
                .POST, "/v1/registrations",
                json: ["email": "alice@example.com", "password": "Correct-Horse-9", "terms_accepted": true])
            let id = try registered.decode(RegistrationAccepted.self).registrationId
            let code = try await server.latestCode(to: "alice@example.com")
            let verified = try await server.send(
                .POST, "/v1/registrations/\(id)/verify", json: ["code": code, "device": Self.phone] as [String: Any])
            try #require(verified.status == 201, "\(verified.text)")

            let fromPhone = try await server.signIn(device: Self.phone)
            let fromLaptop = try await server.signIn(device: Self.laptop)

            #expect(fromPhone.status == 200, "\(fromPhone.text)")
            #expect(fromLaptop.status == 403 && fromLaptop.errorCode == "VERIFICATION_REQUIRED", "\(fromLaptop.text)")
        }
    }

    @Test(
        "C8 a new device gets 403 VERIFICATION_REQUIRED with a mailed code; the code completes the sign-in and a notice follows",
        arguments: TestDatabase.all)
    func C8_newDeviceChallengedByEmail(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let tokens = try await server.signUp(device: Self.phone)
            _ = try await server.signIn(device: Self.phone)
            let mailsBefore = await server.mails().count

            let challenged = try await server.signIn(device: Self.laptop)

            #expect(challenged.status == 403 && challenged.errorCode == "VERIFICATION_REQUIRED", "\(challenged.text)")
            #expect(challenged.errorBody?.method == "email")
            let challengeID = try #require(challenged.errorBody?.challengeId)
            // Untyped: no `access_token` key at all, which a typed optional does not tell from null.
            #expect(challenged.json["access_token"] == nil)
            let codeMails = await server.mails().dropFirst(mailsBefore)
            #expect(codeMails.count == 1 && codeMails.first?.code != nil, "one code mail: \(codeMails.map(\.subject))")
            let code = try await server.latestCode(to: "alice@example.com")

            let wrong = try await Self.loginChallenge(
                server, challengeID: challengeID, code: Self.code(differentFrom: code))
            let right = try await Self.loginChallenge(server, challengeID: challengeID, code: code)

            #expect(wrong.status == 400 && wrong.errorCode == "AUTH_003", "\(wrong.text)")
            #expect(wrong.errorBody?.attemptsRemaining == 4)
            #expect(right.status == 200, "\(right.text)")
            let signedIn = try right.decode(TokenResponse.self)
            #expect(signedIn.user.id == tokens.user.id)
            let allMails = await server.mails()
            let notices = allMails.filter(Self.isNewDeviceNotice)
            #expect(notices.count == 1, "a new-device notice after the sign-in: \(allMails.map(\.subject))")
            #expect(notices.first?.body.contains("Alice's MacBook") == true)
            let sessions = try await server.send(.GET, "/v1/sessions", bearer: signedIn.accessToken)
            let current = (try? sessions.decode([SessionInfo].self))?.first { $0.current }
            #expect(current?.deviceName == "Alice's MacBook", "the session keeps the device details")
            let reused = try await Self.loginChallenge(server, challengeID: challengeID, code: code)
            #expect(
                reused.status == 400 && reused.errorCode == "AUTH_003", "a challenge completes once: \(reused.text)")
            let known = try await server.signIn(device: Self.laptop)
            #expect(known.status == 200, "laptop-2 is known now: \(known.text)")
            #expect(
                await server.mails().filter(Self.isNewDeviceNotice).count == 1, "no second notice for a known device")
            let events = try await server.eventTypes(bearer: signedIn.accessToken)
            #expect(events.contains("new_device_signed_in"))
        }
    }

    @Test("C8 a login challenge allows 5 tries and 10 minutes", arguments: TestDatabase.all)
    func C8_challengeLimits(database: TestDatabase) async throws {
        try await withServer(database) { server in
            try await server.signUp(device: Self.phone)
            _ = try await server.signIn(device: Self.phone)
            let first = try #require(try await server.signIn(device: Self.laptop).errorBody?.challengeId)
            let firstCode = try await server.latestCode(to: "alice@example.com")
            var remaining: [Int?] = []
            for _ in 1...5 {
                let wrong = try await Self.loginChallenge(
                    server, challengeID: first, code: Self.code(differentFrom: firstCode))
                remaining.append(wrong.errorBody?.attemptsRemaining)
            }
            let rightAfterFive = try await Self.loginChallenge(server, challengeID: first, code: firstCode)
            let second = try #require(try await server.signIn(device: Self.laptop).errorBody?.challengeId)
            let secondCode = try await server.latestCode(to: "alice@example.com")

            server.clock.advance(by: 601)
            let late = try await Self.loginChallenge(server, challengeID: second, code: secondCode)
            let unknown = try await Self.loginChallenge(server, challengeID: UUID().uuidString, code: "123456")

            #expect(remaining == [4, 3, 2, 1, 0])
            #expect(rightAfterFive.status == 400 && rightAfterFive.errorCode == "AUTH_003", "\(rightAfterFive.text)")
            #expect(late.status == 400 && late.errorCode == "AUTH_003", "\(late.text)")
            #expect(unknown.status == 400 && unknown.errorCode == "AUTH_003")
        }
    }

    @Test(
        "C8 a sign-in without a device id counts as an unknown device once devices are known",
        arguments: TestDatabase.all)
    func C8_missingDeviceIDIsUnknown(database: TestDatabase) async throws {
        try await withServer(database) { server in
            try await server.signUp(device: Self.phone)
            _ = try await server.signIn(device: Self.phone)

            let anonymous = try await server.signIn(device: nil)
            let blankID = try await server.signIn(device: ["id": "  ", "name": "Somebody's phone"])

            #expect(anonymous.status == 403 && anonymous.errorCode == "VERIFICATION_REQUIRED", "\(anonymous.text)")
            #expect(anonymous.errorBody?.challengeId != nil)
            #expect(blankID.status == 403 && blankID.errorCode == "VERIFICATION_REQUIRED", "\(blankID.text)")
        }
    }

    @Test("C8 a wrong password from a new device gets AUTH_001, not a challenge", arguments: TestDatabase.all)
    func C8_wrongPasswordNoChallenge(database: TestDatabase) async throws {
        try await withServer(database) { server in
            try await server.signUp(device: Self.phone)
            _ = try await server.signIn(device: Self.phone)
            let mailsBefore = await server.mails().count

            let wrong = try await server.signIn(password: "Wrong-Password-1", device: Self.laptop)

            #expect(wrong.status == 401 && wrong.errorCode == "AUTH_001", "\(wrong.text)")
            #expect(await server.mails().count == mailsBefore, "no code is mailed for a wrong password")
        }
    }

    @Test(
        "C8 with verify_unusual_sign_ins off a new device signs in directly and a notice is mailed",
        arguments: TestDatabase.all)
    func C8_settingOffNoticeOnly(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let tokens = try await server.signUp(device: Self.phone)
            _ = try await server.signIn(device: Self.phone)
            let initial = try await server.send(.GET, "/v1/me/security-settings", bearer: tokens.accessToken)
            let mailsBefore = await server.mails().count

            let patched = try await server.send(
                .PATCH, "/v1/me/security-settings", json: ["verify_unusual_sign_ins": false], bearer: tokens.accessToken
            )
            let shown = try await server.send(.GET, "/v1/me/security-settings", bearer: tokens.accessToken)
            let fromLaptop = try await server.signIn(device: Self.laptop)

            #expect(
                initial.status == 200 && (try? initial.decode(SecuritySettings.self))?.verifyUnusualSignIns == true,
                "on by default: \(initial.text)")
            #expect(
                patched.status == 200 && (try? patched.decode(SecuritySettings.self))?.verifyUnusualSignIns == false,
                "\(patched.text)")
            #expect((try? shown.decode(SecuritySettings.self))?.verifyUnusualSignIns == false)
            #expect(fromLaptop.status == 200, "\(fromLaptop.text)")
            let newMails = await server.mails().dropFirst(mailsBefore)
            #expect(newMails.filter(Self.isNewDeviceNotice).count == 1, "\(newMails.map(\.subject))")
            #expect(newMails.allSatisfy { $0.code == nil }, "no code mail when the setting is off")
            let events = try await server.eventTypes(bearer: tokens.accessToken)
            #expect(events.contains("new_device_signed_in") && events.contains("security_settings_changed"))
            let again = try await server.signIn(device: Self.laptop)
            #expect(again.status == 200)
            #expect(await server.mails().filter(Self.isNewDeviceNotice).count == 1, "laptop-2 is known now")
            let unauthenticated = try await server.send(.GET, "/v1/me/security-settings")
            #expect(unauthenticated.status == 401)
        }
    }

    @Test(
        "C8 turning the unusual sign-in check off 10 minutes after sign-in needs a verification; turning it on does not",
        arguments: TestDatabase.all)
    func C8_turningTheCheckOffIsVerificationProtected(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let tokens = try await server.signUp(device: Self.phone)
            try await server.setFundPassword(bearer: tokens.accessToken)
            server.clock.advance(by: 601)

            let refused = try await server.send(
                .PATCH, "/v1/me/security-settings", json: ["verify_unusual_sign_ins": false], bearer: tokens.accessToken
            )
            let stillOn = try await server.send(.GET, "/v1/me/security-settings", bearer: tokens.accessToken)
            let token = try await server.verificationToken(
                "disable_unusual_sign_in_check", parameters: [:], bearer: tokens.accessToken)
            let wrongAction = try await server.verificationToken(bearer: tokens.accessToken)
            let withWrongProof = try await server.send(
                .PATCH, "/v1/me/security-settings",
                json: ["verify_unusual_sign_ins": false, "verification_token": wrongAction] as [String: Any],
                bearer: tokens.accessToken)
            let turnedOff = try await server.send(
                .PATCH, "/v1/me/security-settings",
                json: ["verify_unusual_sign_ins": false, "verification_token": token] as [String: Any],
                bearer: tokens.accessToken)
            let turnedOn = try await server.send(
                .PATCH, "/v1/me/security-settings", json: ["verify_unusual_sign_ins": true], bearer: tokens.accessToken)

            #expect(refused.status == 403 && refused.errorCode == "VERIFICATION_REQUIRED", "\(refused.text)")
            #expect((try? stillOn.decode(SecuritySettings.self))?.verifyUnusualSignIns == true)
            #expect(
                withWrongProof.status == 403 && withWrongProof.errorCode == "VERIFICATION_INVALID",
                "\(withWrongProof.text)")
            #expect(
                turnedOff.status == 200
                    && (try? turnedOff.decode(SecuritySettings.self))?.verifyUnusualSignIns == false,
                "\(turnedOff.text)")
            #expect(
                turnedOn.status == 200 && (try? turnedOn.decode(SecuritySettings.self))?.verifyUnusualSignIns == true,
                "\(turnedOn.text)")
        }
    }

    @Test(
        "C8 with TOTP active the challenge method is totp and an authenticator code completes it",
        arguments: TestDatabase.all)
    func C8_totpChallenge(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let tokens = try await server.signUp(device: Self.phone)
            _ = try await server.signIn(device: Self.phone)
            let app = try await server.activateTOTP(bearer: tokens.accessToken)
            server.clock.advance(by: 30)
            let mailsBefore = await server.mails().count

            let challenged = try await server.signIn(device: Self.laptop)
            let challengeID = try #require(challenged.errorBody?.challengeId)
            let wrong = try await Self.loginChallenge(
                server, challengeID: challengeID, code: app.wrongCode(at: server.clock.now))
            let right = try await Self.loginChallenge(
                server, challengeID: challengeID, code: app.code(at: server.clock.now))

            #expect(challenged.status == 403 && challenged.errorCode == "VERIFICATION_REQUIRED", "\(challenged.text)")
            #expect(challenged.errorBody?.method == "totp")
            #expect(
                wrong.status == 400 && wrong.errorCode == "AUTH_003" && wrong.errorBody?.attemptsRemaining == 4,
                "\(wrong.text)")
            #expect(right.status == 200, "\(right.text)")
            let mails = await server.mails().dropFirst(mailsBefore)
            #expect(mails.allSatisfy { $0.code == nil }, "no code is mailed when TOTP answers the challenge")
            #expect(mails.filter(Self.isNewDeviceNotice).count == 1)
        }
    }

    @Test("C8 a device-key sign-in with a device id makes that device known", arguments: TestDatabase.all)
    func C8_deviceSignatureRemembersDevice(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let tokens = try await server.signUp(device: Self.phone)
            _ = try await server.signIn(device: Self.phone)
            let key = DeviceKey()
            let credentialID = try await server.bindDevice(key, bearer: tokens.accessToken)
            let challenge = try await server.loginChallenge(for: credentialID)
            let tablet = ["id": "tablet-3", "name": "Alice's iPad"]

            let byKey = try await server.deviceSignatureGrant(
                challengeID: challenge.challengeId,
                signature: try key.signLogin(challengeID: challenge.challengeId, challenge: challenge.challenge),
                device: tablet)
            let byPassword = try await server.signIn(device: tablet)

            #expect(byKey.status == 200, "\(byKey.text)")
            #expect(byPassword.status == 200, "tablet-3 is known after the key sign-in: \(byPassword.text)")
        }
    }

    @Test(
        "10 §2 an account registered without a device id screens the next device, with or without an id",
        arguments: TestDatabase.all)
    func test_10_registrationWithoutDeviceIDLeavesNoBlindSpot(database: TestDatabase) async throws {
        try await withServer(database) { server in
            try await server.signUp(device: nil)

            let withID = try await server.signIn(device: Self.laptop)
            let withoutID = try await server.signIn(device: nil)

            // Before issue 10 the account knew no device, so whatever came next was trusted silently.
            #expect(withID.status == 403 && withID.errorCode == "VERIFICATION_REQUIRED", "\(withID.text)")
            #expect(withoutID.status == 403 && withoutID.errorCode == "VERIFICATION_REQUIRED", "\(withoutID.text)")
            // Untyped: no `access_token` key at all, which a typed optional does not tell from null.
            #expect(withID.json["access_token"] == nil && withoutID.json["access_token"] == nil)
        }
    }

    @Test(
        "10 §2 a first sign-in without a device id does not make the next device id trusted",
        arguments: TestDatabase.all)
    func test_10_firstSignInWithoutDeviceIDLeavesNoBlindSpot(database: TestDatabase) async throws {
        try await withServer(database) { server in
            try await server.signUp(device: nil)
            // The owner finishes an id-less sign-in with the mailed code: still no device id is known.
            _ = try await server.signInConfirmingNewDevice(device: nil)

            let attacker = try await server.signIn(device: ["id": "attacker-9", "name": "Eve's phone"])

            #expect(attacker.status == 403 && attacker.errorCode == "VERIFICATION_REQUIRED", "\(attacker.text)")
        }
    }

    @Test(
        "10 §2 a pending login challenge is reused only for the same user and the same device",
        arguments: TestDatabase.all)
    func test_10_pendingChallengeReusedOnlyForSameDevice(database: TestDatabase) async throws {
        try await withServer(database) { server in
            try await server.signUp(device: Self.phone)
            try await server.signUp("bob@example.com", device: Self.phone)
            let tablet = ["id": "tablet-3", "name": "Eve's tablet"]

            let laptop = try await server.signIn(device: Self.laptop)
            let other = try await server.signIn(device: tablet)
            let laptopAgain = try await server.signIn(device: Self.laptop)
            let bobLaptop = try await server.signIn("bob@example.com", device: Self.laptop)

            let laptopID = try #require(laptop.errorBody?.challengeId)
            let otherID = try #require(other.errorBody?.challengeId)
            #expect(otherID != laptopID, "another device never gets the laptop's challenge")
            #expect(laptopAgain.errorBody?.challengeId == laptopID, "the same device within a minute reuses it")
            #expect(bobLaptop.errorBody?.challengeId != laptopID, "another user never gets it")
            // The tablet's code does not finish the laptop's challenge, and its challenge signs in as the tablet.
            let tabletCode = try await server.latestCode(to: "alice@example.com")
            let finished = try await Self.loginChallenge(server, challengeID: otherID, code: tabletCode)
            #expect(finished.status == 200, "\(finished.text)")
            let sessions = try await server.send(
                .GET, "/v1/sessions", bearer: try finished.decode(TokenResponse.self).accessToken)
            #expect((try? sessions.decode([SessionInfo].self))?.first { $0.current }?.deviceName == "Eve's tablet")
        }
    }
}
