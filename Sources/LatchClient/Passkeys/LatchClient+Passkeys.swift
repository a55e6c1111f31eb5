import Foundation
import LatchCore

extension LatchClient {
    /// Adds a passkey to the signed-in account (issue 13): asks latchd for creation options, lets
    /// `authenticator` create the credential, and registers it.
    ///
    ///     do {
    ///         let created = try await client.registerPasskey(name: "iPhone", authenticator: ApplePasskeyAuthenticator(anchor: window))
    ///     } catch PasskeyError.verificationRequired(let action, let parameters) {
    ///         // verify `add_passkey`, then: registerPasskey(name:authenticator:verificationToken: proof.token)
    ///     }
    ///
    /// - Parameters:
    ///   - name: what the account page shows (1–64 visible characters); the server picks one when nil.
    ///   - verificationToken: a verification token for `add_passkey`, needed when the session signed
    ///     in more than 10 minutes ago.
    /// - Throws: ``PasskeyError`` (`verificationRequired`, `alreadyRegistered`, `limitReached`, `rejected`,
    ///   `authenticator`, `client`).
    @discardableResult
    public func registerPasskey(
        name: String? = nil, authenticator: any PasskeyAuthenticator, verificationToken: String? = nil
    ) async throws -> PasskeyCreated {
        let verification = (action: PasskeyError.addAction, parameters: [String: String]())
        do {
            let options = try await perform(
                APICall<PasskeyRegistrationOptions>(
                    method: "POST", path: "/v1/passkeys/registration/options",
                    body: PasskeyRegistrationOptionsRequest(verificationToken: verificationToken),
                    requiresAuthorization: true))
            let credential = try await authenticator.createCredential(options.options)
            let created = try await perform(
                APICall<PasskeyCreated>(
                    method: "POST", path: "/v1/passkeys",
                    body: PasskeyRegistrationRequest(
                        challengeId: options.challengeId, credential: credential, name: name),
                    requiresAuthorization: true))
            if let software = authenticator as? SoftwarePasskeyAuthenticator {
                try? await software.remember(serverID: created.id, forCredentialID: credential.id)
            }
            return created
        } catch {
            throw PasskeyError.from(error, verification: verification)
        }
    }

    /// Signs in with a passkey: asks latchd for request options (the same for every email: any
    /// discoverable passkey of this relying party may answer, and with `email` latchd accepts only that
    /// account's), lets `authenticator` sign the challenge, and redeems the assertion (`/v1/token` grant
    /// `passkey`). A passkey is a strong factor: no emailed code follows, even on a new device.
    ///
    /// - Throws: ``PasskeyError`` (`authenticator(.noCredential)` when this device has no passkey for
    ///   the relying party, `rejected` when latchd refuses the assertion — `unknown_credential` also
    ///   when the passkey is not the named account's —, `client`).
    @discardableResult
    public func signInWithPasskey(
        email: String? = nil, authenticator: any PasskeyAuthenticator, device: DeviceInfo? = nil
    ) async throws -> UserInfo {
        let tokens: TokenResponse
        do {
            let options = try await api.perform(
                APICall<PasskeyAuthenticationOptions>(
                    method: "POST", path: "/v1/passkeys/authentication/options",
                    body: PasskeyAuthenticationOptionsRequest(email: email), requiresAuthorization: false))
            let credential = try await authenticator.assertion(options.options)
            tokens = try await api.token(
                TokenRequest(
                    grantType: .passkey, challengeId: options.challengeId, credential: credential,
                    device: try await deviceInfo(device)))
        } catch {
            throw PasskeyError.from(error)
        }
        return try await signIn(with: tokens)
    }

    /// The signed-in account's passkeys (name, created, last used, backed up, transports).
    public func passkeys() async throws -> [PasskeyInfo] {
        do {
            return try await perform(
                APICall<[PasskeyInfo]>(method: "GET", path: "/v1/passkeys", requiresAuthorization: true))
        } catch {
            throw PasskeyError.from(error)
        }
    }

    /// Renames the passkey `id` (1–64 visible characters); returns it as listed.
    @discardableResult
    /// Guarded like adding one: more than 10 minutes after signing in it throws
    /// ``PasskeyError/verificationRequired(action:parameters:)`` for `rename_passkey` with `{passkey_id}`;
    /// call again with the verification's token.
    public func renamePasskey(id: String, name: String, verificationToken: String? = nil) async throws -> PasskeyInfo {
        do {
            return try await perform(
                APICall<PasskeyInfo>(
                    method: "PATCH", path: "/v1/passkeys/\(APICall<PasskeyInfo>.segment(id))",
                    body: RenamePasskeyRequest(name: name, verificationToken: verificationToken),
                    requiresAuthorization: true))
        } catch {
            throw PasskeyError.from(error, verification: (PasskeyError.renameAction, ["passkey_id": id]))
        }
    }

    /// Removes the passkey `id`, guarded like unbinding a device key: a sign-in within 10 minutes, or
    /// `verificationToken` for `remove_passkey` with parameters `{passkey_id: id}`.
    ///
    /// - Throws: ``PasskeyError/lastWayIn(message:)`` when it is the account's only way to sign in,
    ///   ``PasskeyError/verificationRequired(action:parameters:)``, ``PasskeyError/notFound``.
    public func removePasskey(id: String, verificationToken: String? = nil) async throws {
        do {
            try await perform(
                APICall<Void>(
                    method: "DELETE", path: "/v1/passkeys/\(APICall<Void>.segment(id))",
                    body: verificationToken.map { RemovePasskeyRequest(verificationToken: $0) },
                    requiresAuthorization: true))
        } catch {
            throw PasskeyError.from(error, verification: (PasskeyError.removeAction, ["passkey_id": id]))
        }
    }
}
