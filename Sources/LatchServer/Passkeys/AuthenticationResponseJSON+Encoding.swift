import LatchCore
import NIOHTTP1

extension AuthenticationResponseJSON {
    /// Refuses a `credential` whose binary fields are not base64url (`[A-Za-z0-9_-]*` with at most two
    /// `=`), with 400 VALIDATION_FAILED naming the field, whatever the grant: a malformed field is bad
    /// input even where the grant would ignore it (the OpenAPI document says so, and the fuzzer holds
    /// latchd to it).
    func checkEncoding() throws {
        let fields: [(String, String?)] = [
            ("credential.id", id), ("credential.rawId", rawId),
            ("credential.response.clientDataJSON", response.clientDataJSON),
            ("credential.response.authenticatorData", response.authenticatorData),
            ("credential.response.signature", response.signature),
            ("credential.response.userHandle", response.userHandle)
        ]
        for case (let field, let value?) in fields where !Self.isBase64URLShaped(value) {
            throw LatchError(.validationFailed, field: field, reasons: ["invalid"])
        }
    }

    static func isBase64URLShaped(_ text: String) -> Bool {
        let body = text.utf8.reversed().drop(while: { $0 == UInt8(ascii: "=") })
        guard text.utf8.count - body.count <= 2 else { return false }
        return body.allSatisfy { byte in
            (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "-")
                || byte == UInt8(ascii: "_")
        }
    }
}
