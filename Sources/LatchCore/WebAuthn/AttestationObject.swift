/// The attestation object of a registration (WebAuthn Level 3 §6.5): `{fmt, attStmt, authData}` in CBOR.
public struct AttestationObject: Sendable {
    /// The attestation statement format, e.g. `none` or `packed`.
    public let format: String
    /// The format's statement (a CBOR map).
    public let statement: CBORValue
    public let authenticatorData: AuthenticatorData

    /// Why an attestation object is refused.
    public enum Failure: Error, Sendable, Equatable {
        case notCBOR(CBORError)
        case missingField(String)
    }

    public init(bytes: [UInt8]) throws {
        let object: CBORValue
        do { object = try CBORDecoder.decode(bytes) } catch let error as CBORError { throw Failure.notCBOR(error) }
        guard let format = object["fmt"]?.textString else { throw Failure.missingField("fmt") }
        guard let statement = object["attStmt"], statement.mapEntries != nil else {
            throw Failure.missingField("attStmt")
        }
        guard let authData = object["authData"]?.byteString else { throw Failure.missingField("authData") }
        self.format = format
        self.statement = statement
        self.authenticatorData = try AuthenticatorData(bytes: authData)
    }
}
