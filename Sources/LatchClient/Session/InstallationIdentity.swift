import Foundation

/// The installation id: a random id made once per installation and kept in the vault under
/// `installation-id`. Sign-ins send it as `device.id`, so the server recognises this device (C8).
/// Signing out keeps it.
actor InstallationIdentity {
    static let vaultKey = "installation-id"

    private let vault: any TokenVault
    private var cached: String?
    private var loading: Task<String, any Error>?

    init(vault: any TokenVault) {
        self.vault = vault
    }

    /// The id, made and stored on first use. Concurrent first calls share one read (and one id).
    func id() async throws -> String {
        if let cached { return cached }
        if let loading { return try await loading.value }
        let task = Task { [vault] in try await Self.load(from: vault) }
        loading = task
        defer { loading = nil }
        let id = try await task.value
        cached = id
        return id
    }

    private static func load(from vault: any TokenVault) async throws -> String {
        switch await vault.read(vaultKey) {
        case .found(let data):
            if let id = String(data: data, encoding: .utf8), !id.isEmpty { return id }
            // An empty or garbled item is replaced by a new id, as if it were missing.
            return try await create(in: vault)
        case .notFound:
            return try await create(in: vault)
        case .unavailable:
            throw LatchClientError.vaultUnavailable
        }
    }

    private static func create(in vault: any TokenVault) async throws -> String {
        let id = UUID().uuidString.lowercased()
        do {
            try await vault.write(Data(id.utf8), for: vaultKey)
        } catch {
            throw LatchClientError.vaultUnavailable
        }
        return id
    }
}
