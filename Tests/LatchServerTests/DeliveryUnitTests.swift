import Foundation
import LatchCore
import LatchTestSupport
import Testing

@testable import LatchServer

/// The pure parts of delivery: configuration parsing, SMTP reply parsing, backoff, MIME, templates.
@Suite("Delivery building blocks (issue 6)")
struct DeliveryUnitTests {
    @Test(
        "Mail LATCH_SMTP_URL: schemes, default ports, percent-decoded credentials, a description without the password")
    func test_6_smtpURLParsing() throws {
        let plain = try SMTPConfiguration(url: "smtp://mail.example.com")
        let submission = try SMTPConfiguration(url: "smtp://latch:p%40ss@mail.example.com:587")
        let implicit = try SMTPConfiguration(url: "smtps://latch:secret@mail.example.com")

        #expect(plain.port == 25 && plain.security == .startTLSRequired && plain.username == nil)
        #expect(submission.port == 587 && submission.username == "latch" && submission.password == "p@ss")
        #expect(implicit.port == 465 && implicit.security == .implicitTLS)
        #expect(submission.description == "smtp://latch:***@mail.example.com:587")
        #expect(!implicit.description.contains("secret"))
    }

    @Test(
        "Config a bad LATCH_SMTP_URL, LATCH_MAIL_FROM or LATCH_SMS_WEBHOOK_URL is one line naming it, never echoing a secret",
        arguments: [
            ("LATCH_SMTP_URL", "http://latch:hunter2@mail.example.com"),
            ("LATCH_SMTP_URL", "smtp://latch:hunter2@"),
            ("LATCH_SMTP_URL", "smtp://latch:hunter2@mail.example.com/path"),
            ("LATCH_SMTP_URL", "smtp://:hunter2@mail.example.com"),
            ("LATCH_SMTP_URL", "mail.example.com"),
            ("LATCH_MAIL_FROM", "not an address"),
            ("LATCH_MAIL_FROM", "Latch <latch@>"),
            ("LATCH_SMS_WEBHOOK_URL", "ftp://sms.example.com/hunter2"),
            ("LATCH_SMS_WEBHOOK_URL", "sms.example.com/send?token=hunter2")
        ])
    func test_6_badDeliverySettings(variable: String, value: String) throws {
        var environment = ["LATCH_SECRET_KEY": ConfigurationTests.key, variable: value]
        if variable == "LATCH_SMTP_URL" { environment["LATCH_MAIL_FROM"] = "latch@example.com" }
        if variable == "LATCH_MAIL_FROM" { environment["LATCH_SMTP_URL"] = "smtp://mail.example.com" }

        let error = try #require(throws: ConfigurationError.self) { try LatchConfig.fromEnvironment(environment) }

        #expect(error.variable == variable)
        #expect(!error.description.contains("\n") && !error.description.contains("hunter2"))
    }

    @Test("Config LATCH_SMTP_URL needs LATCH_MAIL_FROM; delivery settings are read")
    func test_6_deliverySettingsRead() throws {
        let missingFrom = try #require(throws: ConfigurationError.self) {
            try LatchConfig.fromEnvironment([
                "LATCH_SECRET_KEY": ConfigurationTests.key, "LATCH_SMTP_URL": "smtp://mail.example.com"
            ])
        }
        let config = try LatchConfig.fromEnvironment([
            "LATCH_SECRET_KEY": ConfigurationTests.key, "LATCH_SMTP_URL": "smtps://latch:pw@mail.example.com",
            "LATCH_MAIL_FROM": "Latch 安全中心 <noreply@example.com>",
            "LATCH_SMS_WEBHOOK_URL": "https://sms.example.com/send?token=t"
        ])

        #expect(missingFrom.variable == "LATCH_MAIL_FROM")
        #expect(
            config.smtpURL == "smtps://latch:pw@mail.example.com"
                && config.mailFrom == "Latch 安全中心 <noreply@example.com>")
        #expect(config.smsWebhookURL == "https://sms.example.com/send?token=t")
        #expect(!config.usesDevelopmentOutbox, "both carriers configured: no outbox")
        let from = try MailAddress(parsing: "Latch 安全中心 <noreply@example.com>")
        #expect(from.name == "Latch 安全中心" && from.address == "noreply@example.com")
    }

    @Test("Mail SMTP replies: single and multi-line, malformed lines refused")
    func test_6_replyParsing() throws {
        var parser = SMTPReplyParser()

        #expect(
            try parser.consume("220 mail.example.com ESMTP") == SMTPReply(code: 220, lines: ["mail.example.com ESMTP"]))
        #expect(try parser.consume("250-mail.example.com") == nil)
        #expect(try parser.consume("250-STARTTLS") == nil)
        #expect(
            try parser.consume("250 AUTH PLAIN LOGIN")
                == SMTPReply(code: 250, lines: ["mail.example.com", "STARTTLS", "AUTH PLAIN LOGIN"]))
        #expect(try parser.consume("354") == SMTPReply(code: 354, lines: [""]))
        #expect(throws: SMTPReplyParser.ParseError.self) { try parser.consume("hello") }
        #expect(throws: SMTPReplyParser.ParseError.self) { try parser.consume("250_x") }
    }

    @Test("Mail backoff doubles from the first delay up to the maximum, then gives up")
    func test_6_retryBackoff() {
        let policy = RetryPolicy.standard
        let delays = (1...7).map { policy.delay(afterFailedAttempt: $0) }

        #expect(delays == [.seconds(5), .seconds(10), .seconds(20), .seconds(40), .seconds(80), .seconds(160), nil])
        #expect(
            RetryPolicy(attempts: 10, firstDelay: .seconds(100), maximumDelay: .seconds(300)).delay(
                afterFailedAttempt: 5) == .seconds(300))
    }

    @Test(
        "Mail SMTP errors: 4xx, timeouts and connection failures are temporary; 5xx and configuration problems are not")
    func test_6_errorClassification() {
        #expect(SMTPError.rejected(step: "RCPT TO", code: 451).isTemporary)
        #expect(!SMTPError.rejected(step: "RCPT TO", code: 550).isTemporary)
        #expect(SMTPError.timeout(step: "greeting").isTemporary && SMTPError.connection("refused").isTemporary)
        #expect(
            !SMTPError.authenticationUnsupported.isTemporary && !SMTPError.refusedPlaintextAuthentication.isTemporary)
    }

    @Test("Mail MIME: a long Chinese subject becomes folded UTF-8 encoded words of at most 75 characters")
    func test_6_encodedWordSubject() throws {
        let subject = String(repeating: "安全警告：你的账号已被暂时锁定", count: 3)
        let header = MIMEMessage.encodedHeader(subject)
        let words = header.components(separatedBy: "\r\n ")

        #expect(
            words.count > 1 && words.allSatisfy { $0.count <= 75 && $0.hasPrefix("=?UTF-8?B?") && $0.hasSuffix("?=") })
        let decoded = words.map { word in
            String(decoding: Data(base64Encoded: String(word.dropFirst(10).dropLast(2)))!, as: UTF8.self)
        }.joined()
        #expect(decoded == subject)
        #expect(MIMEMessage.encodedHeader("Your Latch sign-up code: 123456") == "Your Latch sign-up code: 123456")
    }

    @Test("Mail every template exists in zh-Hans and English, with text and HTML, codes in both")
    func test_6_templatesInBothLanguages() {
        let until = Date(timeIntervalSince1970: 1_800_000_000)
        for language in LatchLanguage.allCases {
            let mails = [
                MailTemplates.registrationCode("123456", language: language),
                MailTemplates.registrationAttemptOnExistingAccount(language: language),
                MailTemplates.passwordResetCode("123456", language: language),
                MailTemplates.lockWarning(until: until, language: language),
                MailTemplates.passwordChanged(language: language),
                MailTemplates.fundPasswordLocked(until: until, language: language),
                MailTemplates.totpLocked(until: until, language: language),
                MailTemplates.deviceBound(deviceName: "iPhone", language: language),
                MailTemplates.newDeviceSignedIn(deviceName: "iPhone", ip: "203.0.113.9", language: language),
                MailTemplates.unusualSignInCode("123456", language: language)
            ]
            for mail in mails {
                #expect(!mail.subject.isEmpty && !mail.body.isEmpty)
                #expect(mail.html.hasPrefix("<!DOCTYPE html>") && mail.html.contains("lang=\"\(language.rawValue)\""))
                if mail.subject.contains("123456") {
                    #expect(mail.body.contains("123456") && mail.html.contains(">123456<"))
                }
            }
            let chinese = mails.allSatisfy { $0.subject.unicodeScalars.contains { $0.value > 0x4E00 } }
            #expect(chinese == (language == .zhHans))
        }
    }

    @Test("Mail HTML escapes interpolated values (a device named with markup)")
    func test_6_htmlEscapesInterpolations() {
        let mail = MailTemplates.deviceBound(deviceName: "<script>alert(1)</script> & \"Bob's\"", language: .en)

        #expect(!mail.html.contains("<script>"))
        #expect(mail.html.contains("&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;Bob&#39;s&quot;"))
        #expect(mail.body.contains("<script>alert(1)</script>"), "the text part is text, not markup")
    }

    @Test(
        "Config latchd with a bad LATCH_SMTP_URL exits 2 with one line naming it, never printing the password",
        .enabled(if: ConfigurationTests.latchd != nil, "needs the latchd binary built beside the tests"))
    func test_6_latchdRefusesBadSMTPURL() throws {
        let folder = try ConfigurationTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let latchd = try #require(ConfigurationTests.latchd)
        let environment = [
            "LATCH_SMTP_URL": "smtp://latch:hunter2@", "LATCH_MAIL_FROM": "latch@example.com",
            "LATCH_SECRET_KEY": ConfigurationTests.key,
            "LATCH_DATABASE_URL": "sqlite://" + folder.appendingPathComponent("latch.sqlite").path
        ]

        let process = try ChildProcess([latchd.path], environment: environment)
        let text = process.readToEnd()
        let status = process.wait()

        #expect(status == 2)
        #expect(text.split(whereSeparator: \.isNewline).count == 1 && text.contains("LATCH_SMTP_URL"), "\(text)")
        #expect(!text.contains("hunter2"))
    }
}
