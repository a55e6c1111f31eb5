/// What a request shows for DPoP (RFC 9449), as the HTTP edge reads it: the `DPoP` headers, the method
/// and the URI the client addressed (`htu`).
struct DPoPPresentation: Sendable, Equatable {
    /// Every `DPoP` header's value; more than one is refused (RFC 9449 §4.3 step 1).
    var proofs: [String]
    var method: String
    /// `scheme://host[:port]/path`: the forwarded scheme and host behind `LATCH_TRUSTED_PROXIES`.
    var uri: String
}
