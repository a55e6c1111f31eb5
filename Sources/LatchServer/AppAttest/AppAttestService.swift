import FluentKit
import Foundation
import LatchCore

/// App Attest on device binding (issue 31 §2), without HTTP: challenges, the attestation that comes
/// with a bind, and the assertions that may come with a device key's signature. The rules of
/// `LATCH_APP_ATTEST` live here; `AppAttestVerifier` holds Apple's checks.
struct AppAttestService: Sendable {
    let latch: LatchServices
    let db: any Database

    /// What a bind's attestation established: the App Attest key to store with the device key.
    struct AttestedBinding: Sendable {
        let keyID: String
        let key: AppAttestVerifier.AttestedKey
        let environment: AppAttestEnvironment
    }

    private var mode: AppAttestMode { latch.config.appAttest.mode }

    /// A single-use challenge (5 minutes) for one attestation by the caller.
    func challenge(for caller: Caller) async throws -> AppAttestChallengeInfo {
        let (id, challenge) = try await latch.appAttestStore.createChallenge(
            for: caller.user, now: latch.clock.epochSeconds, on: db)
        return AppAttestChallengeInfo(
            challengeId: id.uuidString.lowercased(), challenge: challenge,
            expiresIn: Int(AppAttestStore.challengeLifetime))
    }

    /// Checks the attestation of a bind of device key `publicKey` (as sent) by `user`: nil when App Attest
    /// is off, or optional and none was sent; 422 `app_attest` with the failed check's reason (or
    /// `required`). The challenge is used here, so run it only once the bind is otherwise known to be fine.
    func attestBinding(_ attestation: AppAttestAttestation?, publicKey: String, user: UUID) async throws
        -> AttestedBinding?
    {
        guard mode != .off else { return nil }
        let verifier = try self.verifier
        guard let attestation else {
            if mode == .required { throw LatchError.invalid("app_attest", ["required"]) }
            return nil
        }
        guard let object = Base64URL.decode(attestation.attestationObject), object.count <= 64 * 1024,
            attestation.keyId.count <= 128
        else { throw Self.refused(.malformed) }
        // One App Attest key binds once (issue 41 §2); the bind's transaction records it (`recordBinding`).
        guard try await !latch.appAttestStore.wasBound(attestation.keyId, on: db) else {
            throw Self.refused(.keyIDUsed)
        }
        let now = latch.clock.now
        guard let challengeID = UUID(uuidString: attestation.challengeId),
            let challenge = try await latch.appAttestStore.useChallenge(
                challengeID, of: user, now: now.timeIntervalSince1970, on: db)
        else { throw Self.refused(.challengeUnknownOrUsed) }
        let clientDataHash = AppAttestClientData.hash(
            AppAttestClientData.binding(challenge: challenge, publicKey: publicKey))
        do {
            let key = try await verifier.verifyAttestation(
                object, keyID: attestation.keyId, clientDataHash: clientDataHash, now: now)
            return AttestedBinding(keyID: attestation.keyId, key: key, environment: verifier.environment)
        } catch {
            throw Self.refused(error)
        }
    }

    /// Checks the App Attest assertion that came with a signature by device key `credential` over
    /// `message`, and stores its counter. Off (and not `required`): nothing is checked. An attested key is
    /// asserted on its every use, in `optional` mode too (issue 41 §2): without its assertion, 422
    /// `app_attest_assertion` `required`. A key bound without App Attest signs alone, unless `required`
    /// (the verification policy's `attested_device`) or `LATCH_APP_ATTEST=required` asks for an attested
    /// one: 422 `app_attest_assertion` `not_attested`.
    func checkAssertion(
        _ assertion: String?, of credential: DeviceCredential, over message: SignedMessage, required: Bool = false
    ) async throws {
        let mustAssert = required || mode == .required
        guard mode != .off || mustAssert else { return }
        let verifier = try self.verifier
        guard let publicKeyText = credential.appAttestPublicKey, let appID = credential.appAttestAppID,
            let publicKey = Base64URL.decode(publicKeyText)
        else {
            if mustAssert { throw LatchError.invalid("app_attest_assertion", ["not_attested"]) }
            return
        }
        // A copy of the device key signing without the app's assertion is what App Attest exists to stop.
        guard let assertion else { throw LatchError.invalid("app_attest_assertion", ["required"]) }
        guard let bytes = Base64URL.decode(assertion), bytes.count <= 8 * 1024 else {
            throw Self.refused(.malformed, field: "app_attest_assertion")
        }
        let counter: UInt32
        do {
            counter = try verifier.verifyAssertion(
                bytes, clientDataHash: AppAttestClientData.hash(AppAttestClientData.assertion(over: message)),
                publicKey: publicKey, appID: appID, previousCounter: UInt32(clamping: credential.appAttestCounter ?? 0))
        } catch {
            throw Self.refused(error, field: "app_attest_assertion")
        }
        guard try await latch.appAttestStore.advanceCounter(of: try credential.requireID(), to: counter, on: db) else {
            throw Self.refused(.counterNotIncreased, field: "app_attest_assertion")
        }
        credential.appAttestCounter = Int64(counter)
    }

    /// Apple's checks for the configured roots; a 500 (never a pass) if they could not be read, which
    /// configuration refuses at start, so App Attest fails closed.
    private var verifier: AppAttestVerifier {
        get throws {
            guard let verifier = latch.appAttestVerifier else { throw LatchError(.internalError) }
            return verifier
        }
    }

    /// 422 VALIDATION_FAILED naming the check that failed.
    static func refused(_ failure: AppAttestFailure, field: String = "app_attest") -> LatchError {
        LatchError.invalid(field, [failure.rawValue])
    }
}
