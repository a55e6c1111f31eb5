#if canImport(AuthenticationServices)
    import AuthenticationServices
    import Foundation
    import LatchCore

    /// Runs Sign in with Apple with `ASAuthorizationController` and returns what latchd needs: the
    /// identity token, the raw nonce (its SHA-256 went into the request) and, on the first sign-in only,
    /// the user's name. Everything it decides is in ``AppleSignInNonce`` (tested on Linux); this type only
    /// drives the system sheet.
    ///
    ///     let apple = try await AppleSignInHelper(presentationAnchor: view.window!).signIn()
    ///     try await client.signInWithApple(
    ///         identityToken: apple.identityToken, nonce: apple.rawNonce, fullName: apple.fullName, authorizationCode: apple.authorizationCode)
    @MainActor
    public final class AppleSignInHelper: NSObject {
        /// A finished Apple authorization.
        public struct Credential: Sendable, Equatable {
            /// The identity token (a JWT) for grant `apple`.
            public let identityToken: String
            /// The raw nonce for grant `apple`.
            public let rawNonce: String
            /// The user's name, formatted; Apple gives it on the first authorization only.
            public let fullName: String?
            /// Apple's stable user id (the token's `sub`).
            public let userIdentifier: String
            /// The short-lived authorization code for grant `apple` (`authorization_code`): latchd exchanges it
            /// for Apple's refresh token, so deleting the account can revoke the app's Apple authorization.
            public var authorizationCode: String? = nil
        }

        /// Why no credential came back.
        public enum Failure: Error, Equatable {
            /// The user closed the sheet.
            case cancelled
            /// A sign-in is already running on this helper.
            case alreadyRunning
            /// Apple answered without an identity token, or with one that is not UTF-8.
            case noIdentityToken
            /// Any other `ASAuthorizationError`, with its code.
            case failed(code: Int)
        }

        private let anchor: ASPresentationAnchor
        private var pending: (nonce: AppleSignInNonce, continuation: CheckedContinuation<Credential, any Error>)?

        /// - Parameter presentationAnchor: the window the Apple sheet is shown over.
        public init(presentationAnchor: ASPresentationAnchor) {
            self.anchor = presentationAnchor
        }

        /// Shows the Apple sheet; returns the credential, or throws ``Failure``.
        public func signIn(scopes: [ASAuthorization.Scope] = [.fullName, .email]) async throws -> Credential {
            guard pending == nil else { throw Failure.alreadyRunning }
            let nonce = AppleSignInNonce()
            let request = ASAuthorizationAppleIDProvider().createRequest()
            request.requestedScopes = scopes
            request.nonce = nonce.sha256
            let controller = ASAuthorizationController(authorizationRequests: [request])
            controller.delegate = self
            controller.presentationContextProvider = self
            return try await withCheckedThrowingContinuation { continuation in
                pending = (nonce, continuation)
                controller.performRequests()
            }
        }

        /// Resumes the waiting `signIn` once (a second callback is ignored).
        private func finish(_ result: Result<(token: String, fullName: String?, user: String, code: String?), Failure>)
        {
            guard let (nonce, continuation) = pending else { return }
            pending = nil
            switch result {
            case .success(let value):
                continuation.resume(
                    returning: Credential(
                        identityToken: value.token, rawNonce: nonce.raw, fullName: value.fullName,
                        userIdentifier: value.user,
                        authorizationCode: value.code))
            case .failure(let failure):
                continuation.resume(throwing: failure)
            }
        }
    }

    extension AppleSignInHelper: ASAuthorizationControllerDelegate {
        // ASAuthorizationController calls its delegate on the main thread.
        public nonisolated func authorizationController(
            controller: ASAuthorizationController, didCompleteWithAuthorization authorization: ASAuthorization
        ) {
            let credential = authorization.credential as? ASAuthorizationAppleIDCredential
            let token = credential?.identityToken.flatMap { String(data: $0, encoding: .utf8) }
            let fullName = credential?.fullName.flatMap { name -> String? in
                let formatted = PersonNameComponentsFormatter().string(from: name).trimmingCharacters(in: .whitespaces)
                return formatted.isEmpty ? nil : formatted
            }
            let user = credential?.user ?? ""
            let code = credential?.authorizationCode.flatMap { String(data: $0, encoding: .utf8) }
            MainActor.assumeIsolated {
                guard let token else { return finish(.failure(.noIdentityToken)) }
                finish(.success((token, fullName, user, code)))
            }
        }

        public nonisolated func authorizationController(
            controller: ASAuthorizationController, didCompleteWithError error: any Error
        ) {
            let code = (error as? ASAuthorizationError)?.code
            let failure: Failure = code == .canceled ? .cancelled : .failed(code: code?.rawValue ?? -1)
            MainActor.assumeIsolated { finish(.failure(failure)) }
        }
    }

    extension AppleSignInHelper: ASAuthorizationControllerPresentationContextProviding {
        public nonisolated func presentationAnchor(for controller: ASAuthorizationController) -> ASPresentationAnchor {
            MainActor.assumeIsolated { anchor }
        }
    }
#endif
