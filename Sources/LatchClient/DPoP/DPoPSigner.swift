import Foundation
import LatchCore

/// The session's DPoP key at work (issue 31 §3): signs a proof (RFC 9449) for every request to latchd,
/// sends a bound access token only as `Authorization: DPoP` (never as `Bearer`), and keeps the server's
/// latest nonce (`DPoP-Nonce`), so a request refused with USE_DPOP_NONCE is signed again once with it.
/// A device whose clock is off by more than latchd accepts (`iat` 300 s behind, 60 s ahead) learns the
/// server's time from the `Date` of the refusal (`stale_iat`) and signs again once (issue 41 §2: DPoP is on
/// by default, so a wrong clock must not lock the user out).
/// `LatchAPI` uses it when it has one (`LatchClient(…, dpopKeys:)`).
// @unchecked Sendable: `nonce` and `serverClockOffset`, the only mutable state, are read and written only
// under `lock`.
public final class DPoPSigner: @unchecked Sendable {
    public let keys: any DPoPKeyStore
    let clock: @Sendable () -> Date
    // An NSLock rather than Synchronization's Mutex, which needs iOS 18 / macOS 15.
    private let lock = NSLock()
    private var nonce: String?
    /// The server's clock minus this device's, as a `stale_iat` refusal's `Date` said; 0 until then.
    private var serverClockOffset: TimeInterval = 0

    public init(keys: any DPoPKeyStore, clock: @escaping @Sendable () -> Date = { Date() }) {
        self.keys = keys
        self.clock = clock
    }

    /// `request` with its proof: `htm` and `htu` name it; a bound token (`cnf.jkt`) in `Authorization`
    /// goes as `DPoP <token>`, with `ath` in the proof. A request with a bearer (unbound) token goes as it
    /// is: latchd reads no proof for one (RFC 9449 §7.2), and a key that cannot be used now (a locked vault)
    /// must not stop it, e.g. the sign-out that undoes a sign-in whose session could not be stored.
    func signed(_ request: HTTPRequest) async throws -> HTTPRequest {
        var request = request
        var boundToken: String?
        let authorization = request.headers.first { $0.key.lowercased() == "authorization" }
        if let authorization, let token = Self.token(of: authorization.value) {
            guard DPoPProofMaker.isBound(token) else { return request }
            request.headers.removeValue(forKey: authorization.key)
            request.headers["Authorization"] = "DPoP \(token)"
            boundToken = token
        }
        request.headers["DPoP"] = try await DPoPProofMaker.proof(
            key: try await keys.key(), method: request.method, url: request.url,
            now: clock().addingTimeInterval(lock.withLock { serverClockOffset }), accessToken: boundToken,
            nonce: lock.withLock { nonce })
        return request
    }

    /// Keeps the nonce `response` hands out, and the server's time when it refused a proof as stale;
    /// `true` when the answer asks for the request to be signed again (USE_DPOP_NONCE, or `stale_iat` with
    /// a `Date` that moves this device's time by more than `clockTolerance`).
    func learn(from response: HTTPResponse) -> Bool {
        let fresh = response.header("DPoP-Nonce").flatMap { $0.isEmpty ? nil : $0 }
        if let fresh { lock.withLock { nonce = fresh } }
        guard response.status == 400 || response.status == 401,
            case .server(let error) = LatchAPI.error(from: response)
        else { return false }
        if error.code == .useDPoPNonce { return fresh != nil }
        guard error.code == .dpopInvalid, error.reasons == ["stale_iat"],
            let serverTime = response.header("Date").flatMap(Self.httpDate)
        else { return false }
        let offset = serverTime.timeIntervalSince(clock())
        return lock.withLock {
            guard abs(offset - serverClockOffset) > Self.clockTolerance else { return false }
            serverClockOffset = abs(offset) > Self.clockTolerance ? offset : 0
            return true
        }
    }

    /// How far this device's clock may be from the server's before proofs are dated by the server's time:
    /// well inside what latchd accepts, and above the `Date` header's one-second steps and the network's delay.
    static let clockTolerance: TimeInterval = 30

    /// An HTTP date (RFC 9110 §5.6.7, `Sun, 06 Nov 1994 08:49:37 GMT`).
    static func httpDate(_ text: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.date(from: text)
    }

    /// Forgets the key and the nonce: the next sign-in makes a new key.
    public func discard() async throws {
        lock.withLock { nonce = nil }
        try await keys.discard()
    }

    /// The token of `Bearer <token>` or `DPoP <token>`.
    private static func token(of value: String) -> String? {
        let parts = value.split(separator: " ", omittingEmptySubsequences: true)
        guard parts.count == 2, ["bearer", "dpop"].contains(parts[0].lowercased()) else { return nil }
        return String(parts[1])
    }
}
