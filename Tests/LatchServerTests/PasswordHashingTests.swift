import Foundation
import LatchCore
import LatchTestSupport
import NIOHTTP1
import Testing

/// C3: bcrypt reads only 72 bytes; latchd must still tell apart passwords that differ after that.
@Suite("Password hashing (C3)")
struct PasswordHashingTests {
    @Test("C3 passwords longer than bcrypt's 72 bytes count in full", arguments: TestDatabase.all)
    func C3_longPasswordsCountInFull(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let prefix = "Aa1-" + String(repeating: "x", count: 80)
            try await server.signUp(password: prefix + "-first")

            let sameFirst72Bytes = try await server.signIn(password: prefix + "-other")
            let exact = try await server.signIn(password: prefix + "-first")

            #expect(sameFirst72Bytes.status == 401 && sameFirst72Bytes.errorCode == "AUTH_001")
            #expect(exact.status == 200)
        }
    }

    @Test("C3 a password over 128 characters is refused at registration", arguments: TestDatabase.all)
    func C3_maximumLength(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let long = "Aa1" + String(repeating: "z", count: 126)

            let response = try await server.send(
                .POST, "/v1/registrations",
                json: ["email": "long@example.com", "password": long, "terms_accepted": true])

            #expect(response.status == 422 && response.errorBody?.field == "password")
            #expect((response.errorBody?.reasons)?.contains("too_long") == true)
        }
    }
}
