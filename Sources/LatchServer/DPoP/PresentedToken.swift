/// An access token as the `Authorization` header presents it: `Bearer <token>` or `DPoP <token>`
/// (RFC 9449 §7.1).
struct PresentedToken: Sendable, Equatable {
    enum Scheme: Sendable, Equatable {
        case bearer
        case dpop
    }

    let scheme: Scheme
    let token: String
}
