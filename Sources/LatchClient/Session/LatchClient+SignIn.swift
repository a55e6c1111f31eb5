import Foundation
import LatchCore

extension LatchClient {
    /// Starts an email registration (C2): the server mails a 6-digit code. Returns the registration id
    /// for ``verifyRegistration(id:code:)``.
    public func signUp(email: String, password: String, nickname: String? = nil, acceptTerms: Bool) async throws
        -> String
    {
        let registration = RegistrationRequest(
            email: email, password: password, termsAccepted: acceptTerms, nickname: nickname)
        return try await api.register(registration).registrationId
    }

    /// Finishes a registration with the mailed code: the account exists and is signed in.
    @discardableResult
    public func verifyRegistration(id: String, code: String) async throws -> UserInfo {
        let tokens = try await api.verifyRegistration(id: id, code: code, device: deviceInfo())
        return try await signIn(with: tokens)
    }

    /// Signs in with email and password.
    ///
    /// An unusual sign-in (a device the account has not used) throws
    /// `LatchClientError.signInVerificationRequired(challenge)`: ask for the code, then call
    /// ``completeSignIn(challengeID:code:)``. Wrong credentials throw `.server` with AUTH_001, a locked
    /// account AUTH_002 with `lockedUntil`.
    ///
    /// - Parameter device: what to tell the server about this device; missing fields are filled in
    ///   (the installation id, model, platform).
    @discardableResult
    public func signIn(email: String, password: String, device: DeviceInfo? = nil) async throws -> UserInfo {
        let tokens = try await api.passwordGrant(email: email, password: password, device: deviceInfo(device))
        return try await signIn(with: tokens)
    }

    /// Finishes an unusual sign-in with the mailed (or authenticator) code.
    @discardableResult
    public func completeSignIn(challengeID: String, code: String) async throws -> UserInfo {
        let tokens = try await api.loginChallengeGrant(challengeID: challengeID, code: code, device: deviceInfo())
        return try await signIn(with: tokens)
    }

    /// Makes `tokens` (from any grant, e.g. a device-key signature) the session: stored in the vault and
    /// announced as `.signedIn(user)`. A session it replaces is ended on the server, and a refresh still
    /// running for it is discarded. If the vault cannot store the session, the new server session is
    /// ended again and `.vaultUnavailable` thrown.
    @discardableResult
    public func signIn(with tokens: TokenResponse) async throws -> UserInfo {
        let installed: (user: UserInfo, replaced: StoredSession?)
        do {
            installed = try await coordinator.install(tokens)
        } catch {
            try? await api.logout(accessToken: tokens.accessToken)
            throw error
        }
        if let replaced = installed.replaced, replaced.sessionID != tokens.sessionId {
            await endOnServer(replaced)
        }
        return installed.user
    }

    /// The device as sign-ins describe it: `base` with the installation id, model, platform (and, outside
    /// iOS, host name) filled in where missing.
    public func deviceInfo(_ base: DeviceInfo? = nil) async throws -> DeviceInfo {
        ThisDevice.info(completing: base, installationID: try await installationID())
    }

    /// A random id for this installation, made once and kept in the vault (`installation-id`); it
    /// survives sign-out.
    public func installationID() async throws -> String {
        try await identity.id()
    }
}
