/// One reply of an SMTP server (RFC 5321 §4.2): a three-digit code and its text lines.
/// A multi-line reply (`250-…` lines ended by `250 …`) arrives as one reply.
struct SMTPReply: Sendable, Equatable {
    let code: Int
    let lines: [String]

    /// 2xx: the command was done.
    var isCompletion: Bool { (200..<300).contains(code) }
    /// 3xx: the server waits for more (DATA's 354, AUTH's 334).
    var isIntermediate: Bool { (300..<400).contains(code) }
    /// 4xx: a temporary failure; the same mail may succeed later.
    var isTransient: Bool { (400..<500).contains(code) }
}
