import Foundation
import LatchCore
import LatchTestSupport
import NIOHTTP1
import SQLKit
import Testing

@testable import LatchServer

/// Issue 45: users moved in with their password hashes, factors, identities and known devices, and moved
/// out in the same format, on SQLite and PostgreSQL. The hashes are made by Python's bcrypt and hashlib
/// (`UserImportFixtures`, scripts/interop/user_import_fixtures.py).
@Suite("Moving in: user import and export (issue 45)")
struct UserImportTests {
    static let device = ["id": "phone-of-years"]

    /// Writes `lines` as a JSON Lines file in a fresh folder.
    static func file(_ lines: [Any]) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("latch-import-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let text = try lines.map { line -> String in
            if let raw = line as? String { return raw }
            return String(
                decoding: try JSONSerialization.data(withJSONObject: line, options: [.sortedKeys]), as: UTF8.self)
        }.joined(separator: "\n")
        let path = folder.appendingPathComponent("users.jsonl").path
        try Data((text + "\n").utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    static func admin(_ server: TestServer) -> AdminService { .console(on: server.app, language: .en) }

    static func sql(_ server: TestServer) -> any SQLDatabase { server.app.db as! any SQLDatabase }

    static func count(_ server: TestServer, _ query: SQLQueryString) async throws -> Int {
        try await sql(server).raw("SELECT COUNT(*) AS n FROM (\(query)) counted").first()?.decode(
            column: "n", as: Int.self) ?? -1
    }

    static func alice(_ hash: Any = UserImportFixtures.bcryptPassword.hash) -> [String: Any] {
        [
            "external_id": "fb-0001", "email": "alice@example.com", "email_verified": true, "nickname": "Alice",
            "created_at": "2019-04-01T10:00:00Z", "password_hash": hash,
            "known_devices": [["id": "phone-of-years", "name": "Alice's iPhone", "last_seen_at": 1_700_000_000]]
        ]
    }

    @Test(
        "45 §1 the report counts imported, updated, unchanged and refused lines; a refused line changes nothing",
        arguments: TestDatabase.all)
    func test_45_1_reportAndRefusals(database: TestDatabase) async throws {
        try await withServer(database) { server in
            try await server.signUp("native@example.com")
            let path = try Self.file([
                Self.alice(),
                "{not json",
                ["external_id": "x-2", "email": "bob@example.com", "password_hash": "$md5$nothing$we$read"],
                [
                    "external_id": "x-3", "email": "carol@example.com",
                    "password_hash": "$2b$15$" + String(repeating: "a", count: 53)
                ],
                [
                    "external_id": "x-4", "email": "native@example.com",
                    "password_hash": UserImportFixtures.bcryptPassword.hash
                ],
                [
                    "external_id": "x-5", "email": "dave@example.com",
                    "password_hash": ["algorithm": "md5", "hash": UserImportFixtures.md5Password.hash]
                ],
                ["nickname": "nobody to find again"],
                [
                    "external_id": "x-7", "email": "erin@example.com",
                    "totp": ["secret": "JBSWY3DPEHPK3PXP", "digits": 8]
                ],
                ["external_id": "x-8", "email": "frank@example.com", "phone": "12345"]
            ])
            let report = try await Self.admin(server).importUsers(at: path, dryRun: false)
            #expect(report.imported == 1 && report.updated == 0 && report.unchanged == 0, "\(report)")
            #expect(report.refused.map(\.line) == [2, 3, 4, 5, 6, 7, 8, 9], "\(report.refused)")
            #expect(
                report.refused.map(\.reason) == [
                    "invalid_json", "unknown_hash_format", "hash_cost_over_cap", "email_in_use",
                    "legacy_hash_not_allowed", "no_external_id_or_email", "totp_parameters_unsupported",
                    "invalid_phone"
                ], "\(report.refused)")
            // Nothing of a refused line: two users (the native one and Alice), Alice's one import row.
            #expect(try await Self.count(server, "SELECT id FROM users") == 2)
            #expect(try await Self.count(server, "SELECT user_id FROM user_imports") == 1)
            // No secret in the report.
            let text = String(decoding: try JSONEncoder().encode(report), as: UTF8.self)
            #expect(!text.contains("$2b$") && !text.contains(UserImportFixtures.md5Password.hash))
        }
    }

    @Test(
        "45 §1 lines written together: lines of one batch that share an email, phone or identity are decided in file order",
        arguments: TestDatabase.all)
    func test_45_1_batchSharedKeysInFileOrder(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let apple = [["provider": "apple", "sub": "001.shared"]]
            let path = try Self.file([
                ["external_id": "b-1", "email": "one@example.com"],
                ["external_id": "b-2", "email": "one@example.com"],
                ["external_id": "b-1", "email": "renamed@example.com"],
                ["external_id": "b-4", "email": "four@example.com", "phone": "+8613800000004"],
                ["external_id": "b-5", "email": "five@example.com", "identities": apple],
                ["external_id": "b-6", "email": "six@example.com", "identities": apple],
                ["external_id": "b-7", "email": "seven@example.com", "phone": "+8613800000004"],
                [
                    "external_id": "b-8", "email": "eight@example.com",
                    "known_devices": [["id": "d-1", "name": "iPhone"], ["id": "d-2", "name": "iPad"]]
                ]
            ])
            let report = try await Self.admin(server).importUsers(at: path, dryRun: false)
            #expect(report.imported == 4 && report.updated == 1, "\(report)")
            #expect(report.refused.map(\.line) == [2, 6, 7], "\(report.refused)")
            #expect(report.refused.map(\.reason) == ["email_in_use", "identity_in_use", "phone_in_use"])
            let emails = try await Self.sql(server).raw("SELECT email FROM users ORDER BY email").all().map {
                try $0.decode(column: "email", as: String.self)
            }
            #expect(emails.sorted() == ["eight@", "five@", "four@", "renamed@"].map { $0 + "example.com" }.sorted())
            #expect(try await Self.count(server, "SELECT id FROM known_devices") == 2)
            #expect(try await Self.count(server, "SELECT id FROM security_events WHERE type = 'account_imported'") == 4)
            #expect(try await Self.count(server, "SELECT id FROM outbound_events WHERE type = 'account.imported'") == 4)
        }
    }

    @Test(
        "45 §1 importing the same file twice changes nothing the second time; a changed line updates its user",
        arguments: TestDatabase.all)
    func test_45_1_idempotentAndUpdated(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let bob: [String: Any] = ["external_id": "x-2", "email": "bob@example.com", "nickname": "Bob"]
            let path = try Self.file([Self.alice(), bob])
            let first = try await Self.admin(server).importUsers(at: path, dryRun: false)
            let second = try await Self.admin(server).importUsers(at: path, dryRun: false)
            #expect(first.imported == 2 && first.refusedCount == 0, "\(first)")
            #expect(second.imported == 0 && second.unchanged == 2 && second.refusedCount == 0, "\(second)")
            var renamed = bob
            renamed["nickname"] = "Robert"
            let third = try await Self.admin(server).importUsers(
                at: try Self.file([Self.alice(), renamed]), dryRun: false)
            #expect(third.updated == 1 && third.unchanged == 1, "\(third)")
            let nickname = try await Self.sql(server).raw("SELECT nickname FROM users WHERE email = 'bob@example.com'")
                .first()?.decode(column: "nickname", as: String.self)
            #expect(nickname == "Robert")
            #expect(try await Self.count(server, "SELECT id FROM users") == 2)
            // One account_imported event per user, however often the file runs; and its outbound event.
            #expect(try await Self.count(server, "SELECT id FROM security_events WHERE type = 'account_imported'") == 2)
            #expect(try await Self.count(server, "SELECT id FROM outbound_events WHERE type = 'account.imported'") == 2)
        }
    }

    @Test("45 §1 a line over 1 MiB is refused by its number, and the lines after it still import")
    func test_45_1_lineTooLong() async throws {
        try await withServer(.sqlite) { server in
            let long = #"{"external_id":"big","nickname":""# + String(repeating: "a", count: 1 << 20) + #""}"#
            let report = try await Self.admin(server).importUsers(
                at: try Self.file([long, Self.alice()]), dryRun: false)
            #expect(
                report.refused.map(\.line) == [1] && report.refused.first?.reason == "line_too_long",
                "\(report.refused)")
            #expect(report.imported == 1, "\(report)")
        }
    }

    @Test("45 §1 --dry-run checks the whole file and changes nothing", arguments: TestDatabase.all)
    func test_45_1_dryRun(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let path = try Self.file([Self.alice(), "[]"])
            let report = try await Self.admin(server).importUsers(at: path, dryRun: true)
            #expect(report.dryRun && report.imported == 1 && report.refused.map(\.line) == [2], "\(report)")
            #expect(try await Self.count(server, "SELECT id FROM users") == 0)
        }
    }

    @Test(
        "45 §2 an imported hash signs in, is replaced by latchd's bcrypt at once, and a wrong password counts on the ladder",
        arguments: TestDatabase.all)
    func test_45_2_rehashOnFirstSignIn(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let django: [String: Any] = [
                "external_id": "dj-1", "email": "django@example.com",
                "password_hash": UserImportFixtures.djangoPassword.hash,
                "known_devices": [["id": "phone-of-years"]]
            ]
            _ = try await Self.admin(server).importUsers(at: try Self.file([Self.alice(), django]), dryRun: false)
            for (email, secret) in [
                ("alice@example.com", UserImportFixtures.bcryptPassword.secret),
                ("django@example.com", UserImportFixtures.djangoPassword.secret)
            ] {
                let wrong = try await server.signIn(email, password: secret + "x", device: Self.device)
                #expect(
                    wrong.status == 401 && wrong.errorCode == "AUTH_001" && wrong.errorBody?.attemptsRemaining == 4,
                    "\(wrong.text)")
                let first = try await server.signIn(email, password: secret, device: Self.device)
                #expect(first.status == 200, "\(email): \(first.text)")
                let stored = try await Self.sql(server).raw(
                    "SELECT password_hash FROM users WHERE email = \(bind: email)"
                )
                .first()?.decode(column: "password_hash", as: String.self)
                #expect(stored?.hasPrefix("$2b$") == true, "the imported hash is gone: \(stored ?? "nil")")
                #expect(try await server.signIn(email, password: secret, device: Self.device).status == 200)
                #expect(try await server.signIn(email, password: secret + "x", device: Self.device).status == 401)
            }
        }
    }

    @Test(
        "45 §2 a legacy MD5 digest is imported only with LATCH_IMPORT_LEGACY_HASHES=1, and flags a password change",
        arguments: TestDatabase.all)
    func test_45_2_legacyBehindFlag(database: TestDatabase) async throws {
        try await withServer(database, adjust: { $0.importLegacyHashes = true }) { server in
            let line: [String: Any] = [
                "external_id": "old-1", "email": "old@example.com",
                "password_hash": ["algorithm": "md5", "hash": UserImportFixtures.md5Password.hash]
            ]
            let report = try await Self.admin(server).importUsers(at: try Self.file([line]), dryRun: false)
            #expect(report.imported == 1, "\(report)")
            let flagged = try await Self.sql(server).raw(
                "SELECT password_change_required FROM users WHERE email = 'old@example.com'"
            )
            .first()?.decode(column: "password_change_required", as: Bool.self)
            #expect(flagged == true)
            let signedIn = try await server.signInConfirmingNewDevice(
                "old@example.com", password: UserImportFixtures.md5Password.secret, device: Self.device)
            #expect(!signedIn.accessToken.isEmpty)
        }
    }

    @Test(
        "45 §3 a known device signs in without a code; any other device still meets the new-device check",
        arguments: TestDatabase.all)
    func test_45_3_knownDevicesHonoured(database: TestDatabase) async throws {
        try await withServer(database) { server in
            _ = try await Self.admin(server).importUsers(at: try Self.file([Self.alice()]), dryRun: false)
            let password = UserImportFixtures.bcryptPassword.secret
            let known = try await server.signIn("alice@example.com", password: password, device: Self.device)
            #expect(known.status == 200, "\(known.text)")
            let other = try await server.signIn(
                "alice@example.com", password: password, device: ["id": "a-thief's-laptop"])
            #expect(other.status == 403 && other.errorCode == "VERIFICATION_REQUIRED", "\(other.text)")
            // No notice and no hold at import: the only mail is the new-device code just now.
            let mails = await server.app.latch.outbox?.messages(to: "alice@example.com") ?? []
            #expect(mails.count == 1, "\(mails.map(\.subject))")
        }
    }

    @Test(
        "45 §3 an imported TOTP works at once (each code once), its recovery codes and fund password too",
        arguments: TestDatabase.all)
    func test_45_3_factorsWork(database: TestDatabase) async throws {
        let clock = TestClock()
        try await withServer(database, clock: clock) { server in
            var line = Self.alice()
            line["totp"] = ["secret": "JBSWY3DPEHPK3PXPJBSWY3DP", "algorithm": "SHA1", "digits": 6, "period": 30]
            line["recovery_codes"] = [UserImportFixtures.bcryptRecoveryCode.hash]
            line["fund_password_hash"] = UserImportFixtures.bcryptFundPassword.hash
            let report = try await Self.admin(server).importUsers(at: try Self.file([line]), dryRun: false)
            #expect(report.imported == 1, "\(report)")
            let password = UserImportFixtures.bcryptPassword.secret
            let totp = TOTP(secret: Base32.decode("JBSWY3DPEHPK3PXPJBSWY3DP")!)

            // A new device: the challenge asks for the authenticator's code, and the imported secret answers.
            let challenged = try await server.signIn("alice@example.com", password: password, device: ["id": "new-1"])
            #expect(challenged.status == 403 && challenged.errorBody?.method == "totp", "\(challenged.text)")
            let code = totp.code(at: clock.now)
            let finished = try await server.send(
                .POST, "/v1/token",
                json: [
                    "grant_type": "login_challenge", "challenge_id": challenged.errorBody?.challengeId ?? "",
                    "code": code
                ])
            #expect(finished.status == 200, "\(finished.text)")
            // The same code again is refused (replay).
            let again = try await server.signIn("alice@example.com", password: password, device: ["id": "new-2"])
            let replay = try await server.send(
                .POST, "/v1/token",
                json: [
                    "grant_type": "login_challenge", "challenge_id": again.errorBody?.challengeId ?? "", "code": code
                ])
            #expect(replay.status != 200, "\(replay.text)")
            // The imported recovery code answers, once.
            let third = try await server.signIn("alice@example.com", password: password, device: ["id": "new-3"])
            let recovered = try await server.send(
                .POST, "/v1/token",
                json: [
                    "grant_type": "login_challenge", "challenge_id": third.errorBody?.challengeId ?? "",
                    "code": UserImportFixtures.bcryptRecoveryCode.secret
                ])
            #expect(recovered.status == 200, "\(recovered.text)")
            let user = try #require(
                try await Self.sql(server).raw("SELECT id FROM users").first()?.decode(column: "id", as: UUID.self))
            #expect(
                try await server.app.latch.totp.check(
                    UserImportFixtures.bcryptRecoveryCode.secret, user: user, now: clock.now, on: server.app.db) == nil)

            // The imported fund password verifies, then is latchd's own bcrypt.
            let guardian = SecretGuard(
                latch: server.app.latch, metrics: server.app.latchMetrics, db: server.app.db, clientIP: nil,
                language: .en)
            let fundHash = try #require(
                try await Self.sql(server).raw("SELECT password_hash FROM fund_passwords").first()?.decode(
                    column: "password_hash", as: String.self))
            #expect(fundHash.hasPrefix(ImportedPasswordHash.columnPrefix))
            let checked = try await guardian.checkFundPassword(
                UserImportFixtures.bcryptFundPassword.secret, against: fundHash, of: user, owner: nil, session: nil)
            #expect(checked == .matched)
            let replaced = try await Self.sql(server).raw("SELECT password_hash FROM fund_passwords").first()?.decode(
                column: "password_hash", as: String.self)
            #expect(replaced?.hasPrefix("$2b$") == true)
        }
    }

    @Test(
        "45 §3 Apple and WeChat identities sign their users in; a phone is the user's SMS sign-in",
        arguments: TestDatabase.all)
    func test_45_3_identitiesImported(database: TestDatabase) async throws {
        try await withServer(database) { server in
            var line = Self.alice()
            line["identities"] = [
                ["provider": "apple", "sub": "001234.apple-sub"], ["provider": "wechat", "unionid": "u-77"]
            ]
            line["phone"] = "+8613800000000"
            _ = try await Self.admin(server).importUsers(at: try Self.file([line]), dryRun: false)
            let rows = try await Self.sql(server).raw("SELECT provider, subject FROM identities ORDER BY provider")
                .all()
            let pairs = try rows.map {
                "\(try $0.decode(column: "provider", as: String.self))=\(try $0.decode(column: "subject", as: String.self))"
            }
            #expect(pairs == ["apple=001234.apple-sub", "phone=+8613800000000", "wechat=unionid:u-77"], "\(pairs)")
            // Another user with the same Apple sub is a conflict, refused.
            let thief: [String: Any] = [
                "external_id": "t-1", "email": "t@example.com",
                "identities": [["provider": "apple", "sub": "001234.apple-sub"]]
            ]
            let report = try await Self.admin(server).importUsers(at: try Self.file([thief]), dryRun: false)
            #expect(report.refused.map(\.reason) == ["identity_in_use"], "\(report)")
        }
    }

    @Test(
        "45 §1 export writes every user in the import format (0600), and another latchd imports it: the password still works",
        arguments: TestDatabase.all)
    func test_45_1_exportRoundTrip(database: TestDatabase) async throws {
        let exported = FileManager.default.temporaryDirectory.appendingPathComponent(
            "latch-export-\(UUID().uuidString).jsonl"
        ).path
        try await withServer(database) { server in
            try await server.signUp("native@example.com")
            _ = try await Self.admin(server).importUsers(at: try Self.file([Self.alice()]), dryRun: false)
            let count = try await Self.admin(server).exportUsers(to: exported, includeTOTPSecrets: false)
            #expect(count == 2)
            let mode = try FileManager.default.attributesOfItem(atPath: exported)[.posixPermissions] as? Int
            #expect(mode == 0o600)
        }
        try await withServer(database) { server in
            let report = try await Self.admin(server).importUsers(at: exported, dryRun: false)
            #expect(report.imported == 2 && report.refusedCount == 0, "\(report)")
            #expect(
                try await server.signIn("native@example.com", password: "Correct-Horse-9", device: nil).status != 401)
            #expect(
                try await server.signIn(
                    "alice@example.com", password: UserImportFixtures.bcryptPassword.secret, device: Self.device
                ).status == 200)
        }
    }

    @Test(
        "45 §1 POST /v1/admin/imports takes a batch with an admin key: the same report, a bad user refused by its number",
        arguments: TestDatabase.all)
    func test_45_1_adminImportsRoute(database: TestDatabase) async throws {
        let key = "admin-0123456789abcdef0123456789abcdef"
        try await withServer(database, adjust: { $0.adminKeys = [key] }) { server in
            let body: [String: Any] = ["users": [Self.alice(), ["email": 7], ["email": "bob@example.com"]]]
            let anonymous = try await server.send(.POST, "/v1/admin/imports", json: body)
            #expect(anonymous.status == 401, "\(anonymous.text)")
            let answer = try await server.send(.POST, "/v1/admin/imports", json: body, bearer: key)
            #expect(answer.status == 200, "\(answer.text)")
            let report = try JSONDecoder().decode(UserImportReport.self, from: answer.data)
            #expect(
                report.imported == 2 && report.refused.map(\.line) == [2]
                    && report.refused.first?.reason == "invalid_json", "\(report)")
            let empty = try await server.send(.POST, "/v1/admin/imports", json: ["users": [Any]()], bearer: key)
            #expect(empty.status == 400 || empty.status == 422, "\(empty.text)")
            #expect(
                try await server.signIn(
                    "alice@example.com", password: UserImportFixtures.bcryptPassword.secret, device: Self.device
                ).status == 200)
        }
    }
}
