/// Whether `POST /v1/token` binds sessions to a DPoP key (RFC 9449) when asked, or insists (`LATCH_DPOP`).
public enum DPoPMode: String, Sendable, Equatable, CaseIterable {
    /// A grant with a proof gets tokens bound to its key; one without gets bearer tokens.
    case optional
    /// Every grant needs a proof; a bearer session's refresh is refused (sign in again).
    case required
}
