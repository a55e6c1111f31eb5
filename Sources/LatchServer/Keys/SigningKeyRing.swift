import FluentKit
import Foundation
import Logging
import ServiceLifecycle
import Synchronization

/// This instance's signing keys (`SigningKeys`), kept current with the database: a rotation made by any
/// instance, or by `latchd keys rotate`, signs here within `reloadInterval`. A token whose `kid` is
/// not known here makes it read the keys at once (at most once a second), so a token signed by the
/// new key on another instance verifies here even before the next reload.
///
/// Every `reloadInterval` it also rotates when the signer is `rotationDays` old. Any number of
/// instances may try at once: the new key's `generation` is unique, so exactly one is added.
final class SigningKeyRing: Sendable {
    /// Seconds a superseded key keeps verifying: the access-token lifetime plus 5 minutes for clock
    /// skew and for instances that sign with it until they hear of the rotation.
    static let retireAfter = Double(AccessTokens.lifetime) + 300

    private let secrets: SecretBox
    private let database: @Sendable () -> any Database
    private let clock: LatchClock
    private let rotationDays: Int
    private let reloadInterval: Duration
    private let logger: Logger
    private let snapshot: Mutex<SigningKeys>
    private let lastUnknownKIDReload = Mutex<ContinuousClock.Instant?>(nil)
    private let refresher = Mutex<Task<Void, Never>?>(nil)

    /// Loads the keys (creating the first on a new database).
    init(
        secrets: SecretBox, database: @escaping @Sendable () -> any Database, clock: LatchClock, rotationDays: Int,
        reloadInterval: Duration, logger: Logger
    ) async throws {
        self.secrets = secrets
        self.database = database
        self.clock = clock
        self.rotationDays = rotationDays
        self.reloadInterval = reloadInterval
        self.logger = logger
        snapshot = Mutex(try await SigningKeys.load(on: database(), secrets: secrets, now: clock.epochSeconds))
    }

    /// The keys as last read.
    var current: SigningKeys { snapshot.withLock { $0 } }

    /// Reads the keys again; keeps the snapshot when nothing changed.
    func reload() async throws {
        let now = clock.epochSeconds
        let rows = try await SigningKeys.usableRecords(on: database(), now: now)
        let fingerprint = rows.map { "\($0.id ?? "") \($0.generation ?? 0) \($0.retiresAt ?? -1)" }
        guard fingerprint != current.fingerprint else { return }
        let keys = try await SigningKeys.load(on: database(), secrets: secrets, now: now)
        let changed = snapshot.withLock { current in
            defer { current = keys }
            return current.signingKID != keys.signingKID
        }
        if changed { logger.notice("signing key \(keys.signingKID) now signs access tokens") }
    }

    /// Reads the keys again because a token names `kid`, unknown here; at most once a second.
    func reloadForUnknownKID() async {
        let now = ContinuousClock.now
        let due = lastUnknownKIDReload.withLock { last in
            if let last, now - last < .seconds(1) { return false }
            last = now
            return true
        }
        guard due else { return }
        try? await reload()
    }

    /// Rotates when the signer is `rotationDays` old, then reloads.
    func rotateIfDue() async throws {
        let signer = current.signer
        if signer.createdAt + Double(rotationDays) * 86_400 <= clock.epochSeconds {
            if let kid = try await Self.rotate(
                after: signer.generation, secrets: secrets, now: clock.epochSeconds, on: database())
            {
                logger.notice(
                    "signing key rotated automatically (LATCH_KEY_ROTATION_DAYS=\(rotationDays)): \(kid) signs now")
            }
        }
        try await reload()
    }

    /// Adds generation `generation + 1` as the signer and starts the retirement clock of every older
    /// key, in one transaction; nil (nothing changed) when that generation exists already.
    static func rotate(after generation: Int, secrets: SecretBox, now: Double, on database: any Database) async throws
        -> String?
    {
        try await database.tracedTransaction { database in
            guard
                let kid = try await SigningKeys.insertKey(
                    generation: generation + 1, secrets: secrets, now: now, on: database)
            else { return nil }
            try await SigningKeyStore().retire(below: generation + 1, at: now + retireAfter, on: database)
            return kid
        }
    }

    /// Makes a new key the signer now (after the newest there is); returns its kid.
    static func rotateNow(secrets: SecretBox, now: Double, on database: any Database) async throws -> String {
        for _ in 0..<5 {
            let newest = try await SigningKeyStore().newestGeneration(on: database)
            if let kid = try await rotate(after: newest ?? 0, secrets: secrets, now: now, on: database) { return kid }
        }
        throw RotationContended()
    }

    // MARK: Background reload

    /// Starts reloading (and rotating when due) every `reloadInterval`.
    func startRefreshing() {
        let task = Task { [self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: reloadInterval)
                if Task.isCancelled { return }
                do {
                    try await rotateIfDue()
                } catch {
                    logger.warning("signing keys: could not read them again: \(String(reflecting: type(of: error)))")
                }
            }
        }
        refresher.withLock { $0 = task }
    }

    /// Stops reloading.
    func stopRefreshing() async {
        let task = refresher.withLock { task in
            defer { task = nil }
            return task
        }
        task?.cancel()
        await task?.value
    }
}

extension SigningKeyRing {
    /// Five rotations in a row lost to other instances rotating at the same time.
    struct RotationContended: Error, CustomStringConvertible {
        var description: String { "other instances kept rotating the signing key at the same time" }
    }

    /// The reload as a service (issue 29 §2): from the start of its group to its graceful shutdown.
    struct Refresher: Service {
        let ring: SigningKeyRing

        func run() async throws {
            ring.startRefreshing()
            try? await gracefulShutdown()
            await ring.stopRefreshing()
        }
    }
}
