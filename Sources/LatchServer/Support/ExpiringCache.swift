import Synchronization

/// The one in-memory cache of latchd's hot paths (issue 44 §1): verified access tokens (`AccessTokens`),
/// session status (`SessionStatusCache`), `/v1/me` profiles (`ProfileCache`) and the DPoP proofs seen at
/// resources (`DPoPReplayCache`). Each entry is valid until its own time: a lookup at or after it answers
/// nil, so a stale entry is never served. Bounded by `limit`: when it is reached the expired entries go
/// first and then, unless the cache keeps what is still valid (`keepsValidEntries`: the replay cache,
/// where forgetting a proof would let it be replayed), every entry.
final class ExpiringCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private struct Entry {
        var value: Value
        var validUntil: Double
    }

    private let entries = Mutex<[Key: Entry]>([:])
    let limit: Int
    let keepsValidEntries: Bool

    init(limit: Int, keepsValidEntries: Bool = false) {
        self.limit = limit
        self.keepsValidEntries = keepsValidEntries
    }

    /// The value of `key` while it is valid (`now` before its time); nil otherwise. No suspension and
    /// no allocation: the signed-in fast path.
    func value(for key: Key, now: Double) -> Value? {
        guard let entry = entries.withLock({ $0[key] }), now < entry.validUntil else { return nil }
        return entry.value
    }

    /// Stores `value` for `key`, valid until `validUntil` (`.infinity`: until removed or replaced). `now`
    /// judges which entries have expired when room must be made (a caller without a clock: none has).
    func store(_ value: Value, for key: Key, validUntil: Double, now: Double = -.infinity) {
        entries.withLock { entries in
            makeRoom(in: &entries, now: now)
            entries[key] = Entry(value: value, validUntil: validUntil)
        }
    }

    /// Stores `value` for `key` unless a valid entry is there: `false` then (and nothing changes).
    func storeIfAbsent(_ value: Value, for key: Key, validUntil: Double, now: Double) -> Bool {
        entries.withLock { entries in
            if let known = entries[key], now < known.validUntil { return false }
            makeRoom(in: &entries, now: now)
            entries[key] = Entry(value: value, validUntil: validUntil)
            return true
        }
    }

    /// Replaces the entry of `key` only when the cache holds one (valid or not).
    func replaceIfPresent(_ key: Key, with value: Value, validUntil: Double) {
        entries.withLock { entries in
            if entries[key] != nil { entries[key] = Entry(value: value, validUntil: validUntil) }
        }
    }

    /// Drops the entry of `key`: its next lookup misses.
    func remove(_ key: Key) {
        _ = entries.withLock { $0.removeValue(forKey: key) }
    }

    /// Drops every entry whose value `matches`.
    func removeAll(where matches: (Value) -> Bool) {
        entries.withLock { entries in entries = entries.filter { !matches($0.value.value) } }
    }

    /// How many entries the cache holds, valid or not.
    var count: Int { entries.withLock { $0.count } }

    private func makeRoom(in entries: inout [Key: Entry], now: Double) {
        guard entries.count >= limit else { return }
        entries = entries.filter { now < $0.value.validUntil }
        if entries.count >= limit, !keepsValidEntries { entries.removeAll(keepingCapacity: true) }
    }
}
