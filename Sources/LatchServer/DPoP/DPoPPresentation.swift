/// What a request shows for DPoP (RFC 9449), as the HTTP edge reads it: the `DPoP` headers, the method,
/// and the URIs a proof for it may name (`htu`).
struct DPoPPresentation: Sendable, Equatable {
    /// Every `DPoP` header's value; more than one is refused (RFC 9449 §4.3 step 1).
    var proofs: [String]
    var method: String
    /// `scheme://host[:port]/path` for each of latchd's public origins (`DPoPOrigins`), never the origin
    /// the request claims (issue 41 §2 D1).
    var uris: [String]
}
