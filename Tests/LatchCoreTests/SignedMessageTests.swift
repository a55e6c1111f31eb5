import LatchCore
import Testing

/// A11, B6, D3: the exact bytes a device key signs — `latch-v1\n{purpose}\n{challenge_id}\n{challenge}`.
@Suite("A11 signed message")
struct SignedMessageTests {
    @Test func B6_loginMessageText() throws {
        let message = try SignedMessage.login(challengeID: "chl_1", challenge: "abc-_123")

        #expect(message.text == "latch-v1\nlogin\nchl_1\nabc-_123")
        #expect(message.bytes == Array("latch-v1\nlogin\nchl_1\nabc-_123".utf8))
        #expect(Array(message.data) == message.bytes)
        #expect(message.purpose == .login)
    }

    @Test func D3_verificationMessageCarriesActionAndParameterDigest() throws {
        // Set-up
        let parameters = ["amount": "100.00", "currency": "USDT", "address": "TXabc"]

        // Act
        let message = try SignedMessage.verification(
            action: "withdrawal", parameters: parameters, challengeID: "chl_2", challenge: "xyz")

        // Check
        let digest = "45793ebe5811dee761d9c8cf3c7cbecc3c0c4ba17d677d31e56335a38af3c7e9"
        #expect(message.purpose == .verify(action: "withdrawal", parametersDigest: digest))
        #expect(message.purpose.text == "verify:withdrawal:\(digest)")
        #expect(message.text == "latch-v1\nverify:withdrawal:\(digest)\nchl_2\nxyz")
    }

    @Test func D3_messageIsUTF8WithNoTrailingNewline() throws {
        let message = try SignedMessage.verification(
            action: "提现", parameters: [:], challengeID: "挑战", challenge: "ü")

        #expect(message.bytes.last == Array("ü".utf8).last)
        #expect(message.bytes.filter { $0 == 0x0a }.count == 3)
        #expect(message.bytes.starts(with: Array("latch-v1\nverify:\u{63D0}\u{73B0}:44136fa3".utf8)))
    }

    @Test func A11_lineFeedInAnyFieldIsRefused() {
        #expect(throws: SignedMessage.InvalidField(field: "action")) {
            try SignedMessage.verification(
                action: "withdrawal\nlogin", parameters: [:], challengeID: "c", challenge: "x")
        }
        #expect(throws: SignedMessage.InvalidField(field: "challenge_id")) {
            try SignedMessage.login(challengeID: "c\nd", challenge: "x")
        }
        #expect(throws: SignedMessage.InvalidField(field: "challenge")) {
            try SignedMessage.login(challengeID: "c", challenge: "x\n")
        }
    }

    @Test func D3_differentActionsOrParametersGiveDifferentMessages() throws {
        let base = try SignedMessage.verification(
            action: "withdrawal", parameters: ["amount": "1"], challengeID: "c", challenge: "x")
        let otherAction = try SignedMessage.verification(
            action: "transfer", parameters: ["amount": "1"], challengeID: "c", challenge: "x")
        let otherAmount = try SignedMessage.verification(
            action: "withdrawal", parameters: ["amount": "2"], challengeID: "c", challenge: "x")
        let login = try SignedMessage.login(challengeID: "c", challenge: "x")

        #expect(Set([base, otherAction, otherAmount, login].map(\.bytes)).count == 4)
    }
}
