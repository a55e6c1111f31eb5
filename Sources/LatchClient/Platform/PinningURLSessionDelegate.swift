#if canImport(Security)
    import Foundation
    import Security

    /// Enforces a ``PinningPolicy`` during the TLS handshake (Apple platforms). Thin on purpose: the system
    /// evaluates the trust first, then the tested ``PinningPolicy`` decides from the chain's certificates.
    final class PinningURLSessionDelegate: NSObject, URLSessionDelegate, Sendable {
        let policy: PinningPolicy

        init(policy: PinningPolicy) {
            self.policy = policy
        }

        func urlSession(
            _ session: URLSession, didReceive challenge: URLAuthenticationChallenge
        ) async -> (URLSession.AuthChallengeDisposition, URLCredential?) {
            guard challenge.protectionSpace.authenticationMethod == NSURLAuthenticationMethodServerTrust,
                let trust = challenge.protectionSpace.serverTrust
            else { return (.performDefaultHandling, nil) }
            let host = challenge.protectionSpace.host
            // Pinning narrows trust, never widens it: an untrusted chain is refused whatever its keys.
            guard SecTrustEvaluateWithError(trust, nil) else { return (.cancelAuthenticationChallenge, nil) }
            let chain = (SecTrustCopyCertificateChain(trust) as? [SecCertificate]) ?? []
            let certificates = chain.map { SecCertificateCopyData($0) as Data }
            switch policy.evaluate(host: host, certificateChain: certificates) {
            case .allow:
                return (.useCredential, URLCredential(trust: trust))
            case .notPinned:
                return (.performDefaultHandling, nil)
            case .reject:
                return (.cancelAuthenticationChallenge, nil)
            }
        }
    }
#endif
