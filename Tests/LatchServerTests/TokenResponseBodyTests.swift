import Foundation
import LatchCore
import NIOCore
import Testing

@testable import LatchServer

/// C5 (issue 21): the token answer is written field by field; its bytes are the encoder's, whatever a user's
/// email or nickname holds.
@Suite("C5 token answer bytes")
struct TokenResponseBodyTests {
    static let awkwardTexts: [String?] = [
        nil, "", "plain", "a/b\\c\"d", "tab\there\nnew\rline", "\u{8}\u{c}\u{0}\u{1f}\u{7f}", "Zoë 🐱 名前",
        "\u{2028}</script>",
        String((0..<32).map { Character(Unicode.Scalar(UInt8($0))) })
    ]

    @Test("C5 the token answer's bytes are LatchJSON.encoder's", arguments: awkwardTexts)
    func C5_tokenAnswerIsTheEncodersBytes(text: String?) throws {
        for createdAt in [Date(timeIntervalSince1970: 1_795_000_000.75), Date(timeIntervalSince1970: 0)] {
            let answer = TokenResponse(
                accessToken: "eyJ.abc.def", expiresIn: 7200, refreshToken: "r-_9", refreshExpiresIn: 2_591_999,
                sessionId: "6f1d1d1e-0000-4000-8000-000000000001",
                user: UserInfo(
                    id: "6f1d1d1e-0000-4000-8000-000000000002", email: text, emailVerified: text == nil,
                    nickname: text, createdAt: createdAt))

            let written = try answer.jsonBody()

            let encoded = try LatchJSON.encoder.encode(answer)
            #expect(String(buffer: written) == String(decoding: encoded, as: UTF8.self))
            var wholeSeconds = answer // the encoder's ISO 8601 dates drop fractions of a second
            wholeSeconds.user.createdAt = Date(timeIntervalSince1970: createdAt.timeIntervalSince1970.rounded(.down))
            #expect(
                try LatchJSON.decoder.decode(TokenResponse.self, from: Data(written.readableBytesView)) == wholeSeconds)
        }
    }

    @Test("C5 a user with identities takes the encoder itself")
    func C5_identitiesTakeTheEncoder() throws {
        let answer = TokenResponse(
            accessToken: "a", expiresIn: 7200, refreshToken: "r", refreshExpiresIn: 1, sessionId: "s",
            user: UserInfo(
                id: "u", email: nil, emailVerified: false, nickname: nil, createdAt: Date(timeIntervalSince1970: 0),
                identities: []))

        #expect(Data(try answer.jsonBody().readableBytesView) == (try LatchJSON.encoder.encode(answer)))
    }
}
