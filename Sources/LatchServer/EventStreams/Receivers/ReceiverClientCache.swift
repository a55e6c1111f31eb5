/// Which HTTP clients `ReceiverClient` keeps (issue 42 §3), as a pure value: one per host and pinned
/// address, so connections stay alive between attempts. A host pinned to a new address retires its
/// client for the old one; past `capacity` the least recently used client is retired. A retired client
/// is handed back to be shut down once no attempt uses it any more (shutting it down earlier would fail
/// that attempt).
struct ReceiverClientCache<Client> {
    /// Which client: the host name the request names, and the address its connections go to.
    struct Key: Hashable, Sendable {
        let host: String
        let pin: ReceiverAddress
    }

    /// One use of a client, ended by `release(_:)`.
    struct Lease: Hashable, Sendable {
        fileprivate let id: Int
    }

    private struct Entry {
        let key: Key
        let client: Client
        /// Attempts using the client now.
        var users: Int
        /// When it was last leased, in leases handed out.
        var lastUse: Int
        /// No longer handed out; shut down when `users` reaches 0.
        var retired: Bool
    }

    private enum State {
        /// Handing out clients.
        case open(entries: [Int: Entry], current: [Key: Int], leases: Int)
        /// Shut down: every client was handed back once.
        case closed
    }

    /// The most clients kept (retired ones still in use not counted).
    let capacity: Int
    private var state: State = .open(entries: [:], current: [:], leases: 0)

    init(capacity: Int) {
        precondition(capacity >= 1, "a cache holds at least one client")
        self.capacity = capacity
    }

    /// What `lease(_:make:)` hands out.
    struct Leased {
        let lease: Lease
        let client: Client
        /// Retired clients no attempt uses: to be shut down now.
        let retired: [Client]
    }

    /// The address `host` is pinned to now, if it has a client.
    func currentPin(of host: String) -> ReceiverAddress? {
        guard case .open(_, let current, _) = state else { return nil }
        return current.keys.first { $0.host == host }?.pin
    }

    /// A client for `key`, made by `make` when there is none; nil once closed.
    mutating func lease(_ key: Key, make: () -> Client) -> Leased? {
        guard case .open(var entries, var current, var leases) = state else { return nil }
        leases += 1
        let id: Int
        if let existing = current[key] {
            id = existing
            entries[id]?.users += 1
            entries[id]?.lastUse = leases
        } else {
            id = leases
            entries[id] = Entry(key: key, client: make(), users: 1, lastUse: leases, retired: false)
            current[key] = id
        }
        var retired: [Client] = []
        // The host moved to another address: its clients for the old ones go.
        for (other, otherID) in current where other.host == key.host && other != key {
            current[other] = nil
            retired += Self.retire(otherID, in: &entries)
        }
        while current.count > capacity {
            guard
                let (oldest, oldestID) = current.filter({ $0.value != id }).min(by: { lhs, rhs in
                    (entries[lhs.value]?.lastUse ?? 0) < (entries[rhs.value]?.lastUse ?? 0)
                })
            else { break }
            current[oldest] = nil
            retired += Self.retire(oldestID, in: &entries)
        }
        state = .open(entries: entries, current: current, leases: leases)
        guard let client = entries[id]?.client else {
            preconditionFailure("the entry leased was made or found above and is current, so not retired")
        }
        return Leased(lease: Lease(id: id), client: client, retired: retired)
    }

    /// Ends `lease`; the client when it was retired and this was its last user, to be shut down.
    mutating func release(_ lease: Lease) -> Client? {
        guard case .open(var entries, let current, let leases) = state else {
            return nil // closed meanwhile: `close()` handed the client back already
        }
        guard var entry = entries[lease.id] else {
            preconditionFailure("a lease's entry stays until its last user releases it")
        }
        entry.users -= 1
        let done = entry.retired && entry.users == 0
        entries[lease.id] = done ? nil : entry
        state = .open(entries: entries, current: current, leases: leases)
        return done ? entry.client : nil
    }

    /// Closes the cache: every client, in use or not, to be shut down.
    mutating func close() -> [Client] {
        guard case .open(let entries, _, _) = state else { return [] }
        state = .closed
        return entries.sorted { $0.key < $1.key }.map(\.value.client)
    }

    /// How many clients are kept for use (not retired).
    var count: Int {
        guard case .open(_, let current, _) = state else { return 0 }
        return current.count
    }

    /// Marks `id` retired; its client when no one uses it (removed then).
    private static func retire(_ id: Int, in entries: inout [Int: Entry]) -> [Client] {
        guard var entry = entries[id] else { return [] }
        guard entry.users > 0 else {
            entries[id] = nil
            return [entry.client]
        }
        entry.retired = true
        entries[id] = entry
        return []
    }
}
