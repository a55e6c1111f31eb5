import Foundation
import LatchCore
import Testing

@testable import LatchClient

/// A server for these tests that keeps device credentials and checks signatures the way latchd does
/// (`DeviceSignature.verify` over the login message).
actor FakeCredentialServer: DeviceCredentialAPI {
    struct Bind: Equatable {
        let publicKey: String
        let deviceName: String?
        let biometry: BiometryKind
        let verificationToken: String?
    }

    private(set) var credentials: [String: String] = [:]
    private(set) var binds: [Bind] = []
    private(set) var unbinds: [String] = []
    /// The verification token each unbind call carried (issue 10 §2), in call order.
    private(set) var unbindProofs: [String?] = []
    private(set) var challengeRequests = 0
    private var challenges: [String: (credentialID: String, challenge: String)] = [:]
    private var counter = 0
    var bindError: (any Error)?
    var unbindError: (any Error)?
    var challengeError: (any Error)?
    var gate: CredentialServerGate?

    static let tokens = BiometricSignInTests.tokens

    func set(
        bindError: (any Error)? = nil, unbindError: (any Error)? = nil, challengeError: (any Error)? = nil,
        gate: CredentialServerGate? = nil
    ) {
        self.bindError = bindError
        self.unbindError = unbindError
        self.challengeError = challengeError
        self.gate = gate
    }

    /// Removes a credential as another device (or the web) would.
    func removeElsewhere(_ credentialID: String) { credentials[credentialID] = nil }

    /// What each bind that said so declared protects the key (issue 11 §2), in call order.
    private(set) var protections: [DeviceKeyProtection] = []

    func bind(
        publicKey: String, deviceName: String?, biometry: BiometryKind, protection: DeviceKeyProtection,
        verificationToken: String?
    ) throws -> String {
        protections.append(protection)
        return try bind(
            publicKey: publicKey, deviceName: deviceName, biometry: biometry, verificationToken: verificationToken)
    }

    func bind(publicKey: String, deviceName: String?, biometry: BiometryKind, verificationToken: String?) throws
        -> String
    {
        binds.append(
            Bind(publicKey: publicKey, deviceName: deviceName, biometry: biometry, verificationToken: verificationToken)
        )
        if let bindError { throw bindError }
        guard DeviceSignature.publicKey(fromBase64URL: publicKey) != nil else {
            throw DeviceCredentialError.server(code: .validationFailed, message: nil)
        }
        counter += 1
        let id = "cred-\(counter)"
        credentials[id] = publicKey
        return id
    }

    func challenge(credentialID: String) async throws -> SignatureChallengeInfo {
        challengeRequests += 1
        if let gate { await gate.pass() }
        if let challengeError { throw challengeError }
        guard credentials[credentialID] != nil else { throw DeviceCredentialError.credentialNotFound }
        counter += 1
        let info = SignatureChallengeInfo(
            challengeId: "chl-\(counter)", challenge: "challenge-\(counter)", expiresIn: 120)
        challenges[info.challengeId] = (credentialID, info.challenge)
        return info
    }

    func signIn(challengeID: String, signature: String) throws -> TokenResponse {
        guard let issued = challenges.removeValue(forKey: challengeID),
            let publicKey = credentials[issued.credentialID],
            let message = try? SignedMessage.login(challengeID: challengeID, challenge: issued.challenge),
            DeviceSignature.verify(
                publicKeyX963Base64URL: publicKey, signatureDERBase64URL: signature, message: message)
        else { throw DeviceCredentialError.signatureRejected }
        return Self.tokens
    }

    func unbind(credentialID: String, verificationToken: String?) throws {
        unbindProofs.append(verificationToken)
        try unbind(credentialID: credentialID)
    }

    func unbind(credentialID: String) throws {
        if let unbindError { throw unbindError }
        guard credentials.removeValue(forKey: credentialID) != nil else {
            throw DeviceCredentialError.credentialNotFound
        }
        unbinds.append(credentialID)
    }
}
