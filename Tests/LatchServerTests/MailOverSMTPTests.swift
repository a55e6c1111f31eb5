import Foundation
import LatchCore
import LatchServer
import LatchTestSupport
import Testing

/// Issue 6 item 5 end to end: latchd configured with `LATCH_SMTP_URL` mails through a real SMTP
/// server on loopback (`SMTPSink`), which decodes what arrived (MIME parts, RFC 2047 subject).
@Suite("Mail over SMTP, end to end (C2, C4)", .serialized, .timeLimit(.minutes(10)))
struct MailOverSMTPTests {
    @Test(
        "C2 the registration code arrives over SMTP: recipient, UTF-8 subject, code in both MIME parts",
        arguments: TestDatabase.all)
    func C2_registrationCodeArrivesOverSMTP(database: TestDatabase) async throws {
        try await withSMTPSink { sink in
            try await withDeliveryServer(
                database, smtpURL: "smtp://127.0.0.1:\(sink.port)", mailFrom: "Latch 安全中心 <latch@latch.test>"
            ) { server in
                let registered = try await server.post(
                    "/v1/registrations",
                    json: ["email": "Alice@Example.com", "password": "Correct-Horse-9", "terms_accepted": true],
                    language: "zh-CN")
                #expect(registered.status == 202)

                let mail = try #require(try await sink.waitForMessages(1).first)
                #expect(mail.rcpt_tos == ["alice@example.com"] && mail.to == "alice@example.com")
                #expect(mail.mail_from == "latch@latch.test")
                #expect(mail.from == "Latch 安全中心 <latch@latch.test>", "the display name is decoded from RFC 2047")
                let code = try #require(mail.subject.components(separatedBy: "：").last)
                #expect(mail.subject == "Latch 注册验证码：\(code)" && code.count == 6 && code.allSatisfy(\.isNumber))
                #expect(mail.raw.contains("Subject: =?UTF-8?B?"), "the subject travels as an encoded word")
                #expect(mail.content_type == "multipart/alternative")
                #expect(mail.parts.map(\.content_type) == ["text/plain", "text/html"])
                #expect(mail.parts.allSatisfy { $0.charset == "utf-8" })
                #expect(
                    mail.part("text/plain")?.contains(code) == true
                        && mail.part("text/plain")?.contains("10 分钟内有效") == true)
                #expect(
                    mail.part("text/html")?.contains("<p") == true && mail.part("text/html")?.contains(code) == true)
                #expect(mail.message_id.hasPrefix("<") && mail.message_id.hasSuffix("@latch.test>"))
                #expect(mail.date.hasSuffix("+0000"))
                #expect(
                    (await server.app.latch.outbox?.messages(to: "alice@example.com") ?? []).isEmpty,
                    "mail is not kept in the outbox")

                // The mailed code completes the registration.
                let id = try registered.decode(RegistrationAccepted.self).registrationId
                #expect(try await server.post("/v1/registrations/\(id)/verify", json: ["code": code]).status == 201)
            }
        }
    }

    @Test("C4 five wrong passwords: the lock warning mail arrives over SMTP", arguments: TestDatabase.all)
    func C4_lockWarningMailArrivesOverSMTP(database: TestDatabase) async throws {
        try await withSMTPSink { sink in
            try await withDeliveryServer(database, smtpURL: "smtp://127.0.0.1:\(sink.port)") { server in
                let registered = try await server.post(
                    "/v1/registrations",
                    json: ["email": "bob@example.com", "password": "Correct-Horse-9", "terms_accepted": true])
                let codeMail = try #require(try await sink.waitForMessages(1).first)
                let code = try #require(codeMail.subject.components(separatedBy: ": ").last)
                let id = try registered.decode(RegistrationAccepted.self).registrationId
                #expect(try await server.post("/v1/registrations/\(id)/verify", json: ["code": code]).status == 201)

                var last: TestResponse?
                for _ in 1...5 {
                    last = try await server.post(
                        "/v1/token",
                        json: ["grant_type": "password", "email": "bob@example.com", "password": "Wrong-Password-1"])
                }

                #expect(last?.status == 423 && last?.errorCode == "AUTH_002")
                let mails = try await sink.waitForMessages(2)
                let warning = try #require(mails.last)
                #expect(warning.rcpt_tos == ["bob@example.com"])
                #expect(warning.subject == "Security warning: your Latch account is temporarily locked")
                let lockedUntil = ISO8601DateFormatter().string(from: try #require(last?.errorBody?.lockedUntil))
                #expect(warning.part("text/plain")?.contains("locked until \(lockedUntil)") == true)
                #expect(warning.part("text/html")?.contains("locked until \(lockedUntil)") == true)
                #expect(mails.count == 2, "one warning, not one per failure")
            }
        }
    }

    @Test("C2 registration answers at once while the SMTP server never answers (delivery runs in the background)")
    func C2_registrationDoesNotWaitForMail() async throws {
        try await withSMTPSink(["--silent"]) { sink in
            try await withDeliveryServer(.sqlite, smtpURL: "smtp://127.0.0.1:\(sink.port)") { server in
                let started = ContinuousClock.now
                let registered = try await server.post(
                    "/v1/registrations",
                    json: ["email": "carol@example.com", "password": "Correct-Horse-9", "terms_accepted": true])
                let elapsed = ContinuousClock.now - started

                // Waiting for the mail could not end before the client's 60 s greeting timeout; the
                // bound is that, not a guess at how fast the machine is (issue 22 §8).
                #expect(registered.status == 202)
                #expect(elapsed < .seconds(60), "took \(elapsed)")
            }
        }
    }
}
