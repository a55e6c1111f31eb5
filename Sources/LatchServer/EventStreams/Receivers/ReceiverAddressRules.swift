/// What a receiver URL may be and reach (issue 42 §3): `https` only and public addresses only, unless an
/// operator allowed more.
///
///     let rules = ReceiverAddressRules(allowsPlainHTTP: false, allowsPrivateAddresses: false)
///     try ReceiverURL("https://hooks.example.com/latch", rules: rules)  // fine
///     try ReceiverURL("http://10.0.0.5/latch", rules: rules)            // throws .notHTTPS
struct ReceiverAddressRules: Sendable, Hashable {
    /// Plain `http://` as well as `https://`.
    var allowsPlainHTTP: Bool
    /// Loopback, private, link-local and every other address that is not public (`ReceiverAddressKind`).
    var allowsPrivateAddresses: Bool

    init(allowsPlainHTTP: Bool, allowsPrivateAddresses: Bool) {
        self.allowsPlainHTTP = allowsPlainHTTP
        self.allowsPrivateAddresses = allowsPrivateAddresses
    }

    /// `https` to public addresses only: production's default.
    static let strict = ReceiverAddressRules(allowsPlainHTTP: false, allowsPrivateAddresses: false)

    /// Whether an address of `kind` may be connected to.
    func allows(_ kind: ReceiverAddressKind) -> Bool {
        kind == .publicAddress || allowsPrivateAddresses
    }
}
