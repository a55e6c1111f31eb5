import LatchCore

/// Who is asking, as the edge learned it (a request context's `caller`): the signed-in session once
/// `RequireSignedIn` checked the access token, the client's address and the language of the answer, both
/// set by `LatchContextMiddleware` before any route runs.
public struct RequestCaller: Sendable, Equatable {
    /// The session of the access token; nil until `RequireSignedIn` checked it (and on routes without it).
    public internal(set) var identity: SignedInSession?
    /// The client's IP address: the TCP peer, or behind a trusted proxy (`LATCH_TRUSTED_PROXIES`) the
    /// right-most `X-Forwarded-For` address that is not one (see `TrustedProxies`). Security events,
    /// sessions and mails show this address.
    public internal(set) var clientAddress: String?
    /// The language of the answer and of the mails the request causes, from `Accept-Language`.
    public internal(set) var language: LatchLanguage

    init(identity: SignedInSession? = nil, clientAddress: String? = nil, language: LatchLanguage = .en) {
        self.identity = identity
        self.clientAddress = clientAddress
        self.language = language
    }
}
