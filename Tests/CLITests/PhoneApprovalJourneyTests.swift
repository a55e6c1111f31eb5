// Issue 43 §3's journeys: two `latch` homes against one real latchd, one the phone (signed in, Face ID on:
// a bound device key), the other the web or a second device.
import Foundation
import LatchClient
import LatchCore
import LatchTestSupport
import Testing

@Suite("Issue 43 §3: the phone approves (latch journeys)", .serialized, .timeLimit(.minutes(10)))
struct PhoneApprovalJourneyTests {
    /// A development latchd without LATCH_ISSUER puts this issuer in its codes' URLs.
    static let developmentIssuer = "http://127.0.0.1:8080"

    @Test("43.3 QR sign-in: the web prints the code's URL and number, the phone approves it, the web is signed in")
    func test_43_3_qrSignInThroughTwoHomes() async throws {
        try await journey(.en) { j in
            try await j.signUpWithFaceID("qr@example.com", on: "phone")

            // The web asks and prints the code's URL and the number on lines of their own.
            let web = try j.start(["login", "--with-phone"], on: "web")
            let printed = try await web.waitForOutput(containing: "expires_in: ")
            let url = try #require(Self.value("qr_url", in: printed))
            let number = try #require(Self.value("number", in: printed))
            #expect(url.hasPrefix(Self.developmentIssuer + "/approve/") && url.contains("#s="), "\(printed)")
            #expect(number.count == 2 && number.allSatisfy(\.isNumber), "\(printed)")

            // The phone shows who asks and the numbers, picks the web's, passes Face ID, approves.
            let approve = try await j.latch(
                ["approve", url, "--number", number, "--simulate", "match", "--issuer", Self.developmentIssuer],
                on: "phone")
            #expect(approve.status == 0, "\(approve)")
            #expect(
                approve.showsInOrder([
                    "Sign-In Request", "Is it you signing in on latch CLI", "IP address: 127.0.0.1",
                    "On the same network as this phone", "numbers: ", "[simulated Face ID]", "Sign-in approved.",
                    "state: approved"
                ]), "\(approve)")

            // The web's poll collects the session, stored like `latch login`.
            let login = await web.finish(seconds: 60)
            #expect(login.status == 0, "\(login)")
            #expect(login.output.contains("Signed in as qr@example.com."), "\(login)")
            let whoami = try await j.latch(["whoami", "--json"], on: "web")
            #expect(whoami.status == 0 && whoami.output.contains("qr@example.com"), "\(whoami)")
            #expect(try await j.server.securityEventTypes(home: j.home("phone")).contains("sign_in_approved"))
        }
    }

    @Test("43.3 QR sign-in refusals: another server's code is not read; a wrong number ends it and the web stops")
    func test_43_3_qrSignInRefusals() async throws {
        try await journey(.zhHans) { j in
            try await j.signUpWithFaceID("qr2@example.com", on: "phone")

            let elsewhere = try await j.latch(
                ["approve", "https://evil.example.net/approve/a1#s=secret", "--number", "42", "--simulate", "match"],
                on: "phone")
            #expect(elsewhere.status == 1 && elsewhere.errors.contains("已拒绝"), "\(elsewhere)")

            let web = try j.start(["login", "--with-phone"], on: "web")
            let printed = try await web.waitForOutput(containing: "expires_in: ")
            let url = try #require(Self.value("qr_url", in: printed))
            let number = try #require(Self.value("number", in: printed))

            // The phone shows the three numbers; the person types one the web did not show: the server ends
            // the approval for good.
            let phone = try j.start(
                ["approve", url, "--simulate", "match", "--issuer", Self.developmentIssuer], on: "phone")
            let shown = try await phone.waitForOutput(containing: "numbers: ")
            let numbers = try #require(Self.value("numbers", in: shown)).split(separator: " ").map(String.init)
            #expect(numbers.count == 3 && numbers.contains(number), "\(shown)")
            phone.send(try #require(numbers.first { $0 != number }))
            let approve = await phone.finish(seconds: 60, closingInput: false)
            #expect(approve.status == 1, "\(approve)")
            #expect(approve.output.contains("state: wrong_number"), "\(approve)")
            #expect(approve.output.contains("数字不匹配，请求已终止"), "\(approve)")

            let login = await web.finish(seconds: 60)
            #expect(login.status == 1, "\(login)")
            #expect(login.output.contains("state: denied"), "\(login)")
        }
    }

    @Test(
        "43.3 push approval: a second session starts a verification for the phone, the phone approves, it gets the token"
    )
    func test_43_3_pushApprovalThroughTwoHomes() async throws {
        try await journey(.zhHans) { j in
            try await j.signUpWithFaceID("push@example.com", on: "phone")
            let second = try await j.latch(
                ["login", "push@example.com", "--password-stdin", "--code-from-outbox"], on: "web",
                input: Journey.password)
            try #require(second.status == 0, "\(second)")

            // The second session asks the phone and prints the verification's id and number.
            let web = try j.start(
                ["verify", "withdrawal", "amount=100.00", "currency=USDT", "address=TXabc", "--approve-on", "device"],
                on: "web")
            let printed = try await web.waitForOutput(containing: "请在手机上批准")
            let id = try #require(Self.value("verification_id", in: printed))
            let number = try #require(Self.value("number", in: printed))

            // The phone lists it, then approves it with the number and Face ID.
            let list = try await j.latch(["approvals"], on: "phone")
            #expect(list.status == 0 && list.output.contains("verification_id: \(id)"), "\(list)")
            #expect(list.output.contains("action: withdrawal"), "\(list)")
            let approve = try await j.latch(
                ["approve", "--verification", id, "--number", number, "--simulate", "match"], on: "phone")
            #expect(approve.status == 0, "\(approve)")
            #expect(
                approve.showsInOrder(["操作确认", "是您本人发起的提现吗？", "numbers: ", "［模拟 Face ID］", "已批准该操作", "state: approved"]),
                "\(approve)")

            // The second session collects the token and redeems it as `latch verify` does.
            let verified = await web.finish(seconds: 60)
            #expect(verified.status == 0, "\(verified)")
            let after = try await j.latch(["approvals"], on: "phone")
            #expect(!after.output.contains(id), "\(after)")

            // A second one, denied on the phone: the waiting session stops.
            let again = try j.start(
                ["verify", "withdrawal", "amount=5.00", "currency=USDT", "address=TXabc", "--approve-on", "device"],
                on: "web")
            let deniedID = try #require(
                Self.value("verification_id", in: try await again.waitForOutput(containing: "请在手机上批准")))
            let deny = try await j.latch(["deny", "--verification", deniedID], on: "phone")
            #expect(deny.status == 0 && deny.output.contains("state: denied"), "\(deny)")
            let denied = await again.finish(seconds: 60)
            #expect(denied.status == 1 && denied.output.contains("state: denied"), "\(denied)")
        }
    }

    @Test("43.3 the phone registers its APNs token for its device key, and removes it")
    func test_43_3_pushTokenRegisteredForThisPhone() async throws {
        try await journey(.en) { j in
            try await j.signUpWithFaceID("token@example.com", on: "phone")
            let vault = FileVault(directory: j.home("phone"))
            let client = LatchClient(
                serverURL: j.server.url, vault: vault, dpopKeys: SoftwareDPoPKeyStore(vault: vault))
            guard case .signedIn = await client.restoreSession() else {
                Issue.record("the phone is not signed in")
                return
            }
            let token = Data((0..<32).map { UInt8($0 * 7 % 256) })

            #expect(try await client.registerPushTokenForThisDevice(token, environment: .development))
            let binding = try #require(await BiometricEnrollmentStore(vault: vault).binding())
            try await client.removePushToken(credentialID: binding.credentialID)
            // Another user's (or an unknown) key is refused.
            await #expect(throws: LatchClientError.self) {
                try await client.registerPushToken(token, credentialID: UUID().uuidString, environment: .production)
            }
        }
    }

    /// The value of the line `name: value` in `output`.
    static func value(_ name: String, in output: String) -> String? {
        output.split(separator: "\n").lazy.compactMap { line -> String? in
            guard line.hasPrefix(name + ": ") else { return nil }
            return String(line.dropFirst(name.count + 2)).trimmingCharacters(in: .whitespaces)
        }.first
    }
}
