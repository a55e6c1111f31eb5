import Foundation
import LatchCore

/// The session's DPoP key at work (issue 31 §3): signs a proof (RFC 9449) for every request to latchd,
/// sends a bound access token only as `Authorization: DPoP` (never as `Bearer`), and keeps the server's
/// latest nonce (`DPoP-Nonce`), so a request refused with USE_DPOP_NONCE is signed again once with it.
/// `LatchAPI` uses it when it has one (`LatchClient(…, dpopKeys:)`).
// @unchecked Sendable: `nonce`, the only mutable state, is read and written only under `lock`.
public final class DPoPSigner: @unchecked Sendable {
    public let keys: any DPoPKeyStore
    let clock: @Sendable () -> Date
    // An NSLock rather than Synchronization's Mutex, which needs iOS 18 / macOS 15.
    private let lock = NSLock()
    private var nonce: String?

    public init(keys: any DPoPKeyStore, clock: @escaping @Sendable () -> Date = { Date() }) {
        self.keys = keys
        self.clock = clock
    }

    /// `request` with its proof: `htm` and `htu` name it; a bound token (`cnf.jkt`) in `Authorization`
    /// goes as `DPoP <token>`, with `ath` in the proof.
    func signed(_ request: HTTPRequest) async throws -> HTTPRequest {
        var request = request
        var boundToken: String?
        let authorization = request.headers.first { $0.key.lowercased() == "authorization" }
        if let authorization, let token = Self.token(of: authorization.value), DPoPProofMaker.isBound(token) {
            request.headers.removeValue(forKey: authorization.key)
            request.headers["Authorization"] = "DPoP \(token)"
            boundToken = token
        }
        request.headers["DPoP"] = try await DPoPProofMaker.proof(
            key: try await keys.key(), method: request.method, url: request.url, now: clock(),
            accessToken: boundToken, nonce: lock.withLock { nonce })
        return request
    }

    /// Keeps the nonce `response` hands out; `true` when the answer asks for the request to be signed again
    /// with it (USE_DPOP_NONCE).
    func learnNonce(from response: HTTPResponse) -> Bool {
        guard let fresh = response.header("DPoP-Nonce"), !fresh.isEmpty else { return false }
        lock.withLock { nonce = fresh }
        guard response.status == 400 || response.status == 401,
            case .server(let error) = LatchAPI.error(from: response)
        else { return false }
        return error.code == .useDPoPNonce
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
