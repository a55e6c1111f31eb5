// Issue 13 §2: `latch passkey add/list/rename/remove`, `latch login --passkey` and the passkey method
// of `latch verify`, with the software authenticator's keys in LATCH_HOME, against a real latchd.
import Foundation
import LatchCore
import Testing

@Suite("latch passkey (issue 13 §2)", .serialized, .timeLimit(.minutes(10)))
struct PasskeyCommandTests {
    @Test(
        "issue 13 passkey add, list, rename; login --passkey with and without email; verify by passkey; remove (zh-Hans)"
    )
    func test_I13_passkeyJourneyInChinese() async throws { try await passkeyJourney(.zhHans) }

    @Test("issue 13 passkey add, list, rename; login --passkey with and without email; verify by passkey; remove (en)")
    func test_I13_passkeyJourneyInEnglish() async throws { try await passkeyJourney(.en) }

    private func passkeyJourney(_ language: LatchLanguage) async throws {
        try await journey(language) { j in
            try await j.signUp("pk@example.com")

            let add = try await j.latch(["passkey", "add", "--name", "Work laptop"])
            #expect(add.status == 0, "\(add)")
            #expect(add.output.contains(j.text("已添加通行密钥「Work laptop」", "Passkey “Work laptop” added")), "\(add)")
            // The private key is kept in LATCH_HOME, readable by the owner only.
            let keyFile = j.home().appendingPathComponent("passkeys")
            let stored = try JSONDecoder().decode([[String: JSONValue]].self, from: Data(contentsOf: keyFile))
            #expect(stored.count == 1 && stored.first?["private_key"] != nil)
            let permissions = try FileManager.default.attributesOfItem(atPath: keyFile.path)[.posixPermissions] as? Int
            #expect(permissions == 0o600)

            let list = try await j.latch(["passkey", "list", "--json"])
            #expect(list.status == 0, "\(list)")
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .iso8601
            let passkeys = try decoder.decode([PasskeyInfo].self, from: Data(list.output.utf8)) // LatchCore's type
            #expect(passkeys.map(\.name) == ["Work laptop"])
            let id = try #require(passkeys.first?.id)
            let table = try await j.latch(["passkey", "list"])
            #expect(table.showsInOrder([j.text("名称", "NAME"), id, "Work laptop"]), "\(table)")

            let rename = try await j.latch(["passkey", "rename", id, "Pat's laptop"])
            #expect(rename.status == 0 && rename.output.contains("Pat's laptop"), "\(rename)")

            // Sign in with the passkey: discoverable, then naming the account.
            for arguments in [["login", "--passkey"], ["login", "--passkey", "--email", "pk@example.com"]] {
                #expect(try await j.latch(["logout"]).status == 0)
                let login = try await j.latch(arguments)
                #expect(login.status == 0, "\(login)")
                #expect(
                    login.output.contains(
                        j.text("已通过通行密钥登录：pk@example.com", "Signed in with a passkey as pk@example.com.")), "\(login)")
            }

            // Another device has no passkey for the account: one clear line, exit 1.
            let elsewhere = try await j.latch(["login", "--passkey", "--email", "pk@example.com"], on: "tablet")
            #expect(elsewhere.status == 1, "\(elsewhere)")
            #expect(
                elsewhere.errors.contains(j.text("此设备没有该账号可用的通行密钥", "This device has no passkey for the account.")),
                "\(elsewhere)")

            // Step-up: no biometrics here, so the page goes to the passkey at once; nothing to type.
            let verify = try await j.latch(["verify", "withdrawal", "amount=5.00", "currency=USDT", "address=TXpk"])
            #expect(verify.status == 0, "\(verify)")
            #expect(verify.output.contains(j.text("验证方式：通行密钥", "verified by passkey")), "\(verify)")

            let remove = try await j.latch(["passkey", "remove", id])
            #expect(remove.status == 0, "\(remove)")
            let empty = try await j.latch(["passkey", "list"])
            #expect(empty.output.contains(j.text("尚未添加通行密钥", "No passkeys yet")), "\(empty)")
            // The removed passkey's key is forgotten here too.
            #expect(try await j.latch(["logout"]).status == 0)
            let gone = try await j.latch(["login", "--passkey"])
            #expect(gone.status == 1, "\(gone)")
        }
    }

    @Test("issue 13 login --passkey does not go with --phone")
    func test_I13_passkeyLoginRefusesPhone() async throws {
        try await journey(.en) { j in
            let run = try await j.latch(["login", "--passkey", "--phone", "+8613800138000"])
            #expect(run.status == 2, "\(run)")
            #expect(run.errors.contains("--passkey does not go with --phone or --biometric"), "\(run)")
        }
    }
}
