import Foundation

/// Time-based one-time passwords (RFC 6238) for the 2FA of D1: by default SHA-1, 6 digits,
/// a 30-second step counted from the Unix epoch — what Google Authenticator and every common
/// authenticator app compute.
///
/// Time is always passed in; nothing here reads the clock.
///
///     let totp = TOTP(secret: secretBytes)
///     let shown = totp.code(at: now)                  // e.g. "287082"
///     if let step = totp.match(userInput, at: now, lastAcceptedCounter: stored.lastStep) {
///         stored.lastStep = step                      // accepted; this step and earlier ones are spent
///     }
///
/// `description` never shows the secret, so a `TOTP` can be logged safely.
public struct TOTP: Sendable {
    /// How many decimal digits a code has.
    public var digits: Int { hotp.digits }
    /// The HMAC hash.
    public var algorithm: OTPAlgorithm { hotp.algorithm }
    /// Length of one time step, in seconds.
    public let period: Int
    private let hotp: HOTP

    /// A generator for `secret` (raw bytes, not Base32). `digits` must be 6, 7 or 8, `period` positive.
    public init(secret: [UInt8], digits: Int = 6, period: Int = 30, algorithm: OTPAlgorithm = .sha1) {
        precondition(period > 0, "a TOTP period must be positive, not \(period)")
        self.hotp = HOTP(secret: secret, digits: digits, algorithm: algorithm)
        self.period = period
    }

    /// A generator for `secret` (raw bytes, not Base32).
    public init(secret: Data, digits: Int = 6, period: Int = 30, algorithm: OTPAlgorithm = .sha1) {
        self.init(secret: Array(secret), digits: digits, period: period, algorithm: algorithm)
    }

    /// The time step that `date` falls in: ⌊seconds since 1970 / period⌋ (T0 = 0).
    /// Dates before 1970 give negative steps; dates beyond `Int64` seconds are clamped.
    public func counter(at date: Date) -> Int64 {
        let seconds = date.timeIntervalSince1970.rounded(.down)
        let whole: Int64
        if seconds.isNaN {
            whole = 0
        } else if seconds >= 9.2e18 {
            whole = .max
        } else if seconds <= -9.2e18 {
            whole = .min
        } else {
            whole = Int64(seconds)
        }
        // Floor division, so that the step boundary is the same on both sides of 1970.
        let (quotient, remainder) = whole.quotientAndRemainder(dividingBy: Int64(period))
        return remainder < 0 ? quotient - 1 : quotient
    }

    /// The code shown at `date`, zero-padded to `digits` characters.
    public func code(at date: Date) -> String {
        code(counter: counter(at: date))
    }

    /// The code of time step `counter`.
    public func code(counter: Int64) -> String {
        // A negative step (before 1970) has no meaning in RFC 6238; its bit pattern keeps it total.
        hotp.code(counter: UInt64(bitPattern: counter))
    }

    /// The time step whose code is `code`, looking `window` steps either side of the step of `date`
    /// (1, the default, allows a phone clock up to 30 s off; 0 accepts the current step only);
    /// `nil` when none matches or `code` is not exactly `digits` ASCII digits (trim or strip spaces
    /// before calling if the UI allows them).
    ///
    /// The server stores the returned step and passes it as `lastAcceptedCounter` next time, so a
    /// code for that step or an earlier one is refused (RFC 6238 §5.2: one use per step). When two
    /// steps in the window share the code, the earliest eligible one is returned. Every candidate
    /// is compared in constant time, and all of them are compared.
    ///
    ///     totp.match("287082", at: now)                          // Int64? — the matched step
    ///     totp.match("287082", at: now, lastAcceptedCounter: 41) // only steps after 41 count
    public func match(_ code: String, at date: Date, window: Int = 1, lastAcceptedCounter: Int64? = nil) -> Int64? {
        let offered = Array(code.utf8)
        guard offered.count == digits, offered.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        let now = counter(at: date)
        let reach = Int64(max(0, window))
        var matched: Int64?
        for offset in -reach...reach {
            let (candidate, overflow) = now.addingReportingOverflow(offset)
            if overflow { continue }
            let eligible = lastAcceptedCounter.map { candidate > $0 } ?? true
            let equal = ConstantTime.equal(Array(self.code(counter: candidate).utf8), offered)
            if equal, eligible, matched == nil { matched = candidate }
        }
        return matched
    }
}
