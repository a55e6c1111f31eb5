import Foundation
import Testing

@testable import LatchServer

/// Issue 44 §1: one cache type for the four hand-made caches, its eviction and invalidation in one place.
@Suite("One cache type (issue 44 §1)")
struct ExpiringCacheTests {
    @Test("44 §1 an entry is served before its time and never at or after it")
    func test_44_1_expiredEntryIsNeverServed() {
        let cache = ExpiringCache<String, Int>(limit: 10)
        cache.store(1, for: "a", validUntil: 105, now: 100)
        #expect(cache.value(for: "a", now: 104.9) == 1)
        #expect(cache.value(for: "a", now: 105) == nil)
        #expect(cache.value(for: "b", now: 100) == nil)
    }

    @Test("44 §1 a full cache drops its expired entries first, then everything")
    func test_44_1_fullCacheDropsExpiredThenEverything() {
        let cache = ExpiringCache<Int, Int>(limit: 3)
        cache.store(0, for: 0, validUntil: 50, now: 0)
        cache.store(1, for: 1, validUntil: 200, now: 0)
        cache.store(2, for: 2, validUntil: 200, now: 0)
        cache.store(3, for: 3, validUntil: 200, now: 100)
        #expect(cache.count == 3, "only the expired entry made room")
        #expect(cache.value(for: 1, now: 100) == 1 && cache.value(for: 3, now: 100) == 3)
        cache.store(4, for: 4, validUntil: 200, now: 100)
        #expect(cache.count == 1, "nothing had expired: everything went")
        #expect(cache.value(for: 4, now: 100) == 4 && cache.value(for: 1, now: 100) == nil)
    }

    @Test("44 §1 the replay cache keeps every proof still in its window however full it is")
    func test_44_1_replayCacheNeverForgetsAValidProof() {
        let cache = ExpiringCache<Int, Void>(limit: 2, keepsValidEntries: true)
        for key in 0..<5 { #expect(cache.storeIfAbsent((), for: key, validUntil: 200, now: 100)) }
        #expect(cache.count == 5)
        for key in 0..<5 { #expect(!cache.storeIfAbsent((), for: key, validUntil: 200, now: 150), "replay of \(key)") }
        #expect(cache.storeIfAbsent((), for: 0, validUntil: 300, now: 200), "an expired proof's key may be used again")
        #expect(cache.count == 1, "the expired ones made room")
    }

    @Test("44 §1 invalidation: remove, replace only what is held, remove by value")
    func test_44_1_invalidationInOnePlace() {
        let cache = ExpiringCache<String, Bool>(limit: 10)
        cache.store(true, for: "live", validUntil: 10, now: 0)
        cache.store(true, for: "other", validUntil: 10, now: 0)
        cache.replaceIfPresent("live", with: false, validUntil: .infinity)
        cache.replaceIfPresent("unknown", with: false, validUntil: .infinity)
        #expect(cache.value(for: "live", now: 1_000) == false)
        #expect(cache.value(for: "unknown", now: 0) == nil)
        cache.removeAll(where: { $0 })
        #expect(cache.value(for: "other", now: 1) == nil && cache.value(for: "live", now: 1) == false)
        cache.remove("live")
        #expect(cache.count == 0)
    }

    @Test("44 §1 the four hot-path caches hold their entries in ExpiringCache, not in a dictionary of their own")
    func test_44_1_fourCachesAreOneType() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/LatchServer")
        for path in [
            "Tokens/AccessTokens.swift", "Sessions/SessionStatusCache.swift", "Accounts/ProfileCache.swift",
            "DPoP/DPoPReplayCache.swift"
        ] {
            let text = try String(contentsOf: sources.appendingPathComponent(path), encoding: .utf8)
            #expect(text.contains("ExpiringCache<"), "\(path)")
            #expect(!text.contains("Mutex<["), "\(path) keeps a dictionary of its own")
        }
    }
}
