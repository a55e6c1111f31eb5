import Crypto
import Foundation
import LatchCore

/// Passkeys in software, for tests and the CLI: real WebAuthn responses (CBOR attestation `none` or
/// `packed` self-attestation, P-256 signatures, a signature counter) made by LatchCore's
/// `SoftwareAuthenticator`, with the keys kept in a ``TokenVault`` (key `passkeys`; in the CLI a
/// `0600` file in `LATCH_HOME`). User verification is taken as given: there is no person to ask.
///
///     let passkeys = SoftwarePasskeyAuthenticator(vault: vault, origin: { rpID in "https://\(rpID)" })
///     try await client.registerPasskey(name: "CI", authenticator: passkeys)
///     try await client.signInWithPasskey(authenticator: passkeys)
///
/// Not for production: the private keys are only as safe as the vault.
public actor SoftwarePasskeyAuthenticator: PasskeyAuthenticator {
    /// The vault key the passkeys are kept under.
    public static let vaultKey = "passkeys"

    private let vault: any TokenVault
    private let attestation: SoftwareAuthenticator.AttestationFormat
    private let origin: @Sendable (String) -> String
    private let clock: @Sendable () -> Date

    /// - Parameters:
    ///   - attestation: how registrations are attested (`none`, or `packed` self-attestation).
    ///   - origin: the origin the client data names for a relying party id (a browser's page origin,
    ///     an app's associated domain); ``origin(forRPID:serverURL:)`` suits a development latchd.
    public init(
        vault: any TokenVault, attestation: SoftwareAuthenticator.AttestationFormat = .none,
        origin: @escaping @Sendable (_ rpID: String) -> String = { "https://\($0)" },
        clock: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.vault = vault
        self.attestation = attestation
        self.origin = origin
        self.clock = clock
    }

    /// The origin latchd accepts by default for `rpID`: `http://localhost:{port of serverURL}` for
    /// `localhost` (latchd in development), else `https://{rpID}`.
    public static func origin(forRPID rpID: String, serverURL: URL) -> String {
        guard rpID == "localhost" else { return "https://\(rpID)" }
        return "http://localhost" + (serverURL.port.map { ":\($0)" } ?? "")
    }

    /// The passkeys kept here, oldest first.
    public func storedPasskeys() async throws -> [SoftwarePasskey] {
        switch await vault.read(Self.vaultKey) {
        case .found(let data):
            return try Self.decoder.decode([SoftwarePasskey].self, from: data)
        case .notFound:
            return []
        case .unavailable:
            throw LatchClientError.vaultUnavailable
        }
    }

    /// Forgets the passkey `credentialID` (base64url) on this device; the server still lists it.
    public func forget(credentialID: String) async throws {
        try await save(try await storedPasskeys().filter { $0.credentialID != credentialID })
    }

    /// Forgets the passkey latchd knows as `serverID` (after `removePasskey(id:)`); returns whether
    /// this device held it.
    @discardableResult
    public func forget(serverID: String) async throws -> Bool {
        let stored = try await storedPasskeys()
        let kept = stored.filter { $0.serverID != serverID }
        guard kept.count != stored.count else { return false }
        try await save(kept)
        return true
    }

    /// Notes latchd's id for the passkey `credentialID` once it is registered.
    public func remember(serverID: String, forCredentialID credentialID: String) async throws {
        var stored = try await storedPasskeys()
        guard let index = stored.firstIndex(where: { $0.credentialID == credentialID }) else { return }
        stored[index].serverID = serverID
        try await save(stored)
    }

    public func createCredential(_ options: PublicKeyCredentialCreationOptionsJSON) async throws
        -> RegistrationResponseJSON
    {
        var stored = try await storedPasskeys()
        let excluded = Set(options.excludeCredentials.map(\.id))
        if stored.contains(where: { $0.rpID == options.rp.id && excluded.contains($0.credentialID) }) {
            throw PasskeyAuthenticatorError.alreadyRegistered
        }
        guard options.pubKeyCredParams.contains(where: { $0.alg == COSEAlgorithm.es256.rawValue }) else {
            throw PasskeyAuthenticatorError.notSupported
        }
        var authenticator = SoftwareAuthenticator()
        let response: RegistrationResponseJSON
        do {
            response = try authenticator.register(options: options, origin: origin(options.rp.id), format: attestation)
        } catch {
            throw PasskeyAuthenticatorError.invalidOptions
        }
        stored.append(
            SoftwarePasskey(
                credentialID: authenticator.credentialIDBase64URL, rpID: options.rp.id, userHandle: options.user.id,
                userName: options.user.name, privateKey: Base64URL.encode(authenticator.privateKey.rawRepresentation),
                signCount: authenticator.signCount, createdAt: clock()))
        try await save(stored)
        return response
    }

    public func assertion(_ options: PublicKeyCredentialRequestOptionsJSON) async throws -> AuthenticationResponseJSON {
        var stored = try await storedPasskeys()
        guard let index = Self.match(stored, options) else { throw PasskeyAuthenticatorError.noCredential }
        var authenticator = try stored[index].authenticator()
        let response: AuthenticationResponseJSON
        do {
            response = try authenticator.assert(
                challenge: options.challenge, rpID: options.rpId, origin: origin(options.rpId))
        } catch {
            throw PasskeyAuthenticatorError.invalidOptions
        }
        stored[index].signCount = authenticator.signCount
        try await save(stored)
        return response
    }

    public func hasPasskey(for options: PublicKeyCredentialRequestOptionsJSON) async -> Bool {
        guard let stored = try? await storedPasskeys() else { return false }
        return Self.match(stored, options) != nil
    }

    /// The passkey that answers `options`: the newest one for its RP that `allowCredentials` names
    /// (any of the RP's, when it names none: a discoverable credential).
    private static func match(_ stored: [SoftwarePasskey], _ options: PublicKeyCredentialRequestOptionsJSON) -> Int? {
        let allowed = Set(options.allowCredentials.map(\.id))
        return stored.indices.last { index in
            stored[index].rpID == options.rpId && (allowed.isEmpty || allowed.contains(stored[index].credentialID))
        }
    }

    private static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }

    private static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }

    private func save(_ passkeys: [SoftwarePasskey]) async throws {
        try await vault.write(try Self.encoder.encode(passkeys), for: Self.vaultKey)
    }
}
