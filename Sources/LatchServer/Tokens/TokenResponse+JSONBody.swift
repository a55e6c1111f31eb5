import Foundation
import LatchCore
import NIOCore

extension TokenResponse {
    /// The token answer's JSON, the bytes `LatchJSON.encoder` makes of it, written field by field (issue 21:
    /// every sign-in and refresh sends one). A user with identities (never in a token answer today) takes the
    /// encoder itself.
    func jsonBody() throws -> ByteBuffer {
        guard user.identities == nil else { return ByteBuffer(bytes: try LatchJSON.encoder.encode(self)) }
        var json = JSONBodyWriter(capacity: 1_024)
        json.beginObject()
        json.field("access_token", accessToken)
        json.field("expires_in", expiresIn)
        json.field("refresh_expires_in", refreshExpiresIn)
        json.field("refresh_token", refreshToken)
        json.field("session_id", sessionId)
        json.field("token_type", tokenType)
        json.beginObject("user")
        json.field("created_at", user.createdAt.formatted(.iso8601))
        json.field("email", ifPresent: user.email)
        json.field("email_verified", user.emailVerified)
        json.field("id", user.id)
        json.field("nickname", ifPresent: user.nickname)
        json.endObject()
        json.endObject()
        return json.buffer
    }
}
