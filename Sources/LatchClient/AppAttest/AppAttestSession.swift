import Foundation
import LatchCore

/// What a `LatchClient` with an `AppAttester` does with App Attest (issue 31 §3): attest a fresh App
/// Attest key with every device key bind, remember (in the vault) which App Attest key vouches for which
/// device credential, and make the assertion that goes with each device-key signature: a biometric
/// verification attempt, or a device-key sign-in (whose login challenges it notes when they are issued).
actor AppAttestSession {
    let attester: any AppAttester
    /// The app, as the binds name it (`CFBundleIdentifier`, version).
    let app: AppIdentity?
    let vault: any TokenVault
    private var loginChallenges: [String: (credentialID: String, challenge: String)] = [:]

    init(attester: any AppAttester, app: AppIdentity?, vault: any TokenVault) {
        self.attester = attester
        self.app = app
        self.vault = vault
    }

    /// The vault key of the App Attest key id that vouches for device credential `credentialID`.
    static func vaultKey(of credentialID: String) -> String { "app-attest-key.\(credentialID.lowercased())" }

    /// A new App Attest key attested over `{challenge}.{publicKey}`: the bind's `app_attest` member and the
    /// key id to remember once the bind succeeded. Nil when this device cannot attest.
    func attestation(binding publicKey: String, challenge: AppAttestChallengeInfo) async throws
        -> AppAttestAttestation?
    {
        guard attester.isSupported else { return nil }
        let keyID = try await attester.generateKey()
        let hash = AppAttestClientData.hash(
            AppAttestClientData.binding(challenge: challenge.challenge, publicKey: publicKey))
        let object = try await attester.attestKey(keyID, clientDataHash: hash)
        return AppAttestAttestation(
            keyId: keyID, attestationObject: Base64URL.encode(object), challengeId: challenge.challengeId)
    }

    /// Remembers that App Attest key `keyID` vouches for device credential `credentialID`.
    func remember(_ keyID: String, for credentialID: String) async throws {
        try await vault.write(Data(keyID.utf8), for: Self.vaultKey(of: credentialID))
    }

    /// The assertion (base64url) over `message` by the App Attest key of `credentialID`; nil when none
    /// vouches for it (bound without App Attest) or the attester fails (latchd then decides by its mode).
    func assertion(over message: SignedMessage, credentialID: String) async -> String? {
        guard case .found(let data) = await vault.read(Self.vaultKey(of: credentialID)) else { return nil }
        let keyID = String(decoding: data, as: UTF8.self)
        let hash = AppAttestClientData.hash(AppAttestClientData.assertion(over: message))
        guard let assertion = try? await attester.generateAssertion(keyID, clientDataHash: hash) else { return nil }
        return Base64URL.encode(assertion)
    }

    /// Notes a login challenge issued for `credentialID`, so that its sign-in can carry an assertion.
    func noteLoginChallenge(_ info: SignatureChallengeInfo, for credentialID: String) {
        if loginChallenges.count >= 16 { loginChallenges.removeAll() }
        loginChallenges[info.challengeId] = (credentialID, info.challenge)
    }

    /// The assertion for the sign-in answering login challenge `challengeID`, when this client issued it.
    func loginAssertion(challengeID: String) async -> String? {
        guard let (credentialID, challenge) = loginChallenges.removeValue(forKey: challengeID),
            let message = try? SignedMessage.login(challengeID: challengeID, challenge: challenge)
        else { return nil }
        return await assertion(over: message, credentialID: credentialID)
    }

    /// Forgets the App Attest key of an unbound credential.
    func forget(_ credentialID: String) async {
        try? await vault.delete(Self.vaultKey(of: credentialID))
    }
}
