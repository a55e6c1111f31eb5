#if canImport(AuthenticationServices)
    import AuthenticationServices
    import Foundation
    import LatchCore

    /// The platform's passkeys (iCloud Keychain, or another device by QR code) through
    /// `ASAuthorizationPlatformPublicKeyCredentialProvider`: WebAuthn options from latchd in, the
    /// system sheet, WebAuthn JSON out. Everything it decides is in ``LatchClient``'s passkey calls
    /// (tested on Linux with ``SoftwarePasskeyAuthenticator``); this type only drives the sheet.
    ///
    /// The app needs the associated domain `webcredentials:{rpId}`, and latchd's
    /// `LATCH_WEBAUTHN_ORIGINS` must include `https://{rpId}`.
    ///
    ///     try await client.signInWithPasskey(authenticator: ApplePasskeyAuthenticator(presentationAnchor: window))
    @available(iOS 15.0, macOS 12.0, *)
    @MainActor
    public final class ApplePasskeyAuthenticator: NSObject, PasskeyAuthenticator {
        private let anchor: ASPresentationAnchor
        private var pending: CheckedContinuation<Answer, any Error>?

        /// - Parameter presentationAnchor: the window the system sheet is shown over.
        public init(presentationAnchor: ASPresentationAnchor) {
            self.anchor = presentationAnchor
        }

        public func createCredential(_ options: PublicKeyCredentialCreationOptionsJSON) async throws
            -> RegistrationResponseJSON
        {
            guard let challenge = Base64URL.decode(options.challenge), let userID = Base64URL.decode(options.user.id)
            else {
                throw PasskeyAuthenticatorError.invalidOptions
            }
            let provider = ASAuthorizationPlatformPublicKeyCredentialProvider(relyingPartyIdentifier: options.rp.id)
            let request = provider.createCredentialRegistrationRequest(
                challenge: Data(challenge), name: options.user.name, userID: Data(userID))
            request.userVerificationPreference = .required
            if #available(iOS 17.4, macOS 14.4, *) {
                request.excludedCredentials = options.excludeCredentials.compactMap { descriptor in
                    Base64URL.decode(descriptor.id).map {
                        ASAuthorizationPlatformPublicKeyCredentialDescriptor(credentialID: Data($0))
                    }
                }
            }
            guard case .registration(let response) = try await perform(request) else {
                throw PasskeyAuthenticatorError.failed("the system answered with another kind of credential")
            }
            return response
        }

        public func assertion(_ options: PublicKeyCredentialRequestOptionsJSON) async throws
            -> AuthenticationResponseJSON
        {
            guard let challenge = Base64URL.decode(options.challenge) else {
                throw PasskeyAuthenticatorError.invalidOptions
            }
            let provider = ASAuthorizationPlatformPublicKeyCredentialProvider(relyingPartyIdentifier: options.rpId)
            let request = provider.createCredentialAssertionRequest(challenge: Data(challenge))
            request.userVerificationPreference = .required
            request.allowedCredentials = options.allowCredentials.compactMap { descriptor in
                Base64URL.decode(descriptor.id).map {
                    ASAuthorizationPlatformPublicKeyCredentialDescriptor(credentialID: Data($0))
                }
            }
            guard case .assertion(let response) = try await perform(request) else {
                throw PasskeyAuthenticatorError.failed("the system answered with another kind of credential")
            }
            return response
        }

        /// A finished request, already in WebAuthn's JSON form.
        enum Answer: Sendable {
            case registration(RegistrationResponseJSON)
            case assertion(AuthenticationResponseJSON)

            /// `credential` as JSON; nil for a credential that is not a platform passkey or lacks a part.
            init?(_ credential: ASAuthorizationCredential) {
                if let registration = credential as? ASAuthorizationPlatformPublicKeyCredentialRegistration,
                    let attestationObject = registration.rawAttestationObject
                {
                    let id = Base64URL.encode(registration.credentialID)
                    self = .registration(
                        RegistrationResponseJSON(
                            id: id, rawId: id,
                            response: .init(
                                clientDataJSON: Base64URL.encode(registration.rawClientDataJSON),
                                attestationObject: Base64URL.encode(attestationObject),
                                transports: ["internal", "hybrid"]),
                            authenticatorAttachment: "platform"))
                } else if let assertion = credential as? ASAuthorizationPlatformPublicKeyCredentialAssertion,
                    let authenticatorData = assertion.rawAuthenticatorData, let signature = assertion.signature
                {
                    let id = Base64URL.encode(assertion.credentialID)
                    self = .assertion(
                        AuthenticationResponseJSON(
                            id: id, rawId: id,
                            response: .init(
                                clientDataJSON: Base64URL.encode(assertion.rawClientDataJSON),
                                authenticatorData: Base64URL.encode(authenticatorData),
                                signature: Base64URL.encode(signature),
                                userHandle: assertion.userID.map { Base64URL.encode($0) }),
                            authenticatorAttachment: "platform"))
                } else {
                    return nil
                }
            }
        }

        /// The system cannot be asked which passkeys it holds: passkeys sync through iCloud Keychain and
        /// another device can answer by QR code, so this says yes whenever the options name a credential.
        public nonisolated func hasPasskey(for options: PublicKeyCredentialRequestOptionsJSON) async -> Bool {
            !options.allowCredentials.isEmpty
        }

        private func perform(_ request: ASAuthorizationRequest) async throws -> Answer {
            guard pending == nil else { throw PasskeyAuthenticatorError.failed("a passkey request is already running") }
            let controller = ASAuthorizationController(authorizationRequests: [request])
            controller.delegate = self
            controller.presentationContextProvider = self
            return try await withCheckedThrowingContinuation { continuation in
                pending = continuation
                controller.performRequests()
            }
        }

        private func finish(_ result: Result<Answer, PasskeyAuthenticatorError>) {
            guard let continuation = pending else { return }
            pending = nil
            continuation.resume(with: result.mapError { $0 as any Error })
        }
    }

    @available(iOS 15.0, macOS 12.0, *)
    extension ApplePasskeyAuthenticator: ASAuthorizationControllerDelegate {
        // ASAuthorizationController calls its delegate on the main thread.
        public nonisolated func authorizationController(
            controller: ASAuthorizationController, didCompleteWithAuthorization authorization: ASAuthorization
        ) {
            let answer = Answer(authorization.credential)
            MainActor.assumeIsolated {
                guard let answer else { return finish(.failure(.failed("the system answered without a passkey"))) }
                finish(.success(answer))
            }
        }

        public nonisolated func authorizationController(
            controller: ASAuthorizationController, didCompleteWithError error: any Error
        ) {
            let code = (error as? ASAuthorizationError)?.code
            let failure: PasskeyAuthenticatorError =
                switch code {
                case .canceled?: .cancelled
                case .notHandled?: .noCredential
                default: .failed(String(describing: error))
                }
            MainActor.assumeIsolated { finish(.failure(failure)) }
        }
    }

    @available(iOS 15.0, macOS 12.0, *)
    extension ApplePasskeyAuthenticator: ASAuthorizationControllerPresentationContextProviding {
        public nonisolated func presentationAnchor(for controller: ASAuthorizationController) -> ASPresentationAnchor {
            MainActor.assumeIsolated { anchor }
        }
    }
#endif
