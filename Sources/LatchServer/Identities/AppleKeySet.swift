import Foundation
import JWTKit
import NIOCore

/// Apple's signing keys (`LATCH_APPLE_JWKS_URL`), fetched once and kept: fetched again after a day,
/// or when a token names a `kid` the cached set lacks (Apple rotated its keys), at most once a minute
/// so forged `kid`s cannot make latchd hammer Apple. Concurrent callers share one fetch. Only RSA keys
/// are kept, each as an RS256 verifier.
actor AppleKeySet {
    static let unknownKeyRefetchInterval: Double = 60
    static let maximumAge: Double = 24 * 3600

    /// Why no key could be given.
    enum Failure: Error {
        /// The key set was fetched (or recently tried) and has no such key.
        case unknownKey
        /// Apple's key set could not be fetched or read.
        case unavailable
    }

    private let url: String
    private let http: OutboundHTTP
    private let fetchTimeout: TimeAmount
    private var keys = JWTKeyCollection()
    private var kids: Set<String> = []
    private var fetchedAt: Double?
    private var lastAttemptAt: Double?
    private var inFlight: Task<Bool, Never>?
    /// How many fetches ran (for tests of the rate limit).
    private(set) var fetchCount = 0

    init(url: String, http: OutboundHTTP, fetchTimeout: TimeAmount) {
        self.url = url
        self.http = http
        self.fetchTimeout = fetchTimeout
    }

    /// The keys, holding `kid`, fetched or refreshed as the rules above allow.
    func keys(holding kid: String, now: Double) async throws(Failure) -> JWTKeyCollection {
        let stale = fetchedAt.map { now - $0 >= Self.maximumAge } ?? true
        let mayRetry = lastAttemptAt.map { now - $0 >= Self.unknownKeyRefetchInterval } ?? true
        if stale || (!kids.contains(kid) && mayRetry) {
            let fetched = await fetch(now: now)
            if !fetched && kids.isEmpty { throw .unavailable }
        }
        guard kids.contains(kid) else { throw .unknownKey }
        return keys
    }

    /// Fetches the key set (joining a fetch already running); false when it failed (old keys stay).
    private func fetch(now: Double) async -> Bool {
        if let inFlight { return await inFlight.value }
        lastAttemptAt = now
        fetchCount += 1
        let task = Task { await self.download(now: now) }
        inFlight = task
        let result = await task.value
        inFlight = nil
        return result
    }

    private func download(now: Double) async -> Bool {
        do {
            let response = try await http.get(url, timeout: fetchTimeout)
            guard response.status == 200 else { return false }
            let jwks = try JSONDecoder().decode(JWKS.self, from: response.body)
            let collection = JWTKeyCollection()
            var found: Set<String> = []
            for jwk in jwks.keys where jwk.keyType == .rsa {
                guard let kid = jwk.keyIdentifier?.string, jwk.algorithm == nil || jwk.algorithm == JWK.Algorithm.rs256
                else { continue }
                var rs256 = jwk
                rs256.algorithm = JWK.Algorithm.rs256
                try await collection.add(jwk: rs256)
                found.insert(kid)
            }
            guard !found.isEmpty else { return false }
            keys = collection
            kids = found
            fetchedAt = now
            return true
        } catch {
            return false
        }
    }
}
