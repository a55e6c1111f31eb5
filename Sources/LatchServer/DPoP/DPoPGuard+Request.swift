import HTTPTypes

extension DPoPGuard {
    /// `req` as a DPoP proof must name it: its `DPoP` headers, method, and its path under each of latchd's
    /// configured public origins (`LATCH_ISSUER`, `LATCH_PUBLIC_ORIGINS`; in development also a loopback
    /// `Host`). Neither `Host` nor `X-Forwarded-Host` decides which origin that is (issue 41 §2 D1).
    func presentation(of req: LatchRequest) -> DPoPPresentation {
        DPoPPresentation(
            proofs: req.headers[values: .dpop], method: req.method.rawValue,
            uris: origins.uris(path: req.path, host: req.host))
    }
}
