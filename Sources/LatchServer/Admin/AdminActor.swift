/// Who made an admin call, as the admin audit log names it.
public enum AdminActor: Sendable, Equatable {
    /// A caller of `/v1/admin/*` with the admin key of this fingerprint (`AdminKeys.fingerprint(of:)`).
    case key(fingerprint: String)
    /// `latchd admin …` on the machine where latchd's configuration is (break-glass, no key).
    case console

    /// The `actor` of an audit entry: `key:1a2b3c4d` or `console`.
    public var auditName: String {
        switch self {
        case .key(let fingerprint): "key:\(fingerprint)"
        case .console: "console"
        }
    }
}
