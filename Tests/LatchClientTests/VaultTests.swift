import Foundation
import Testing

@testable import LatchClient

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// C5 off Apple platforms: the file vault (0600 files in a 0700 directory, atomic writes, three-way
/// reads), and the in-memory vault used by tests.
@Suite("Vaults (C5)")
struct VaultTests {
    /// A fresh directory under the system's temporary directory; its vault lives in `…/latch`.
    func scratchDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent(
            "latch-vault-\(UUID().uuidString)", isDirectory: true)
    }

    func mode(_ path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    @Test func C5_fileVaultRoundTrip() async throws {
        let root = scratchDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let vault = FileVault(directory: root.appendingPathComponent("latch"))

        try vault.write(Data("tokens".utf8), for: "session")

        #expect(vault.read("session") == .found(Data("tokens".utf8)))
        try vault.write(Data("newer".utf8), for: "session")
        #expect(vault.read("session") == .found(Data("newer".utf8)))
        try vault.write(Data(), for: "empty")
        #expect(vault.read("empty") == .found(Data()))
    }

    @Test func C5_fileVaultFilesAre0600InA0700Directory() async throws {
        let root = scratchDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let directory = root.appendingPathComponent("latch")
        let vault = FileVault(directory: directory)
        // A looser directory made by someone else is tightened on first write.
        try FileManager.default.createDirectory(
            at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        let previous = umask(0)
        defer { umask(previous) }

        try vault.write(Data("tokens".utf8), for: "session")

        #expect(try mode(directory.path) == 0o700)
        #expect(try mode(vault.fileURL(for: "session").path) == 0o600)
    }

    @Test func C5_fileVaultMissingItemIsNotFound() async throws {
        let root = scratchDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let vault = FileVault(directory: root.appendingPathComponent("latch"))

        // Neither the directory nor the item exist yet.
        #expect(vault.read("session") == .notFound)
        try vault.write(Data("x".utf8), for: "other")
        #expect(vault.read("session") == .notFound)
    }

    @Test func C5_fileVaultUnreadableItemIsUnavailable() async throws {
        let root = scratchDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let vault = FileVault(directory: root.appendingPathComponent("latch"))
        try vault.write(Data("x".utf8), for: "other")
        // An item that exists but cannot be read as a file (here: a directory in its place).
        try FileManager.default.createDirectory(at: vault.fileURL(for: "session"), withIntermediateDirectories: false)

        #expect(vault.read("session") == .unavailable)
    }

    @Test func C5_fileVaultWhoseDirectoryIsNotADirectoryIsUnavailable() async throws {
        let root = scratchDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let blocker = root.appendingPathComponent("latch")
        _ = FileManager.default.createFile(atPath: blocker.path, contents: Data("file".utf8))
        let vault = FileVault(directory: blocker)

        #expect(vault.read("session") == .unavailable)
        #expect(throws: VaultError.self) { try vault.write(Data("x".utf8), for: "session") }
    }

    @Test(.enabled(if: getuid() != 0, "root reads files whatever their mode"))
    func C5_fileVaultPermissionDeniedIsUnavailable() async throws {
        let root = scratchDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let vault = FileVault(directory: root.appendingPathComponent("latch"))
        try vault.write(Data("x".utf8), for: "session")
        chmod(vault.fileURL(for: "session").path, 0)

        #expect(vault.read("session") == .unavailable)
    }

    @Test func C5_fileVaultDeleteRemovesOnlyThatItem() async throws {
        let root = scratchDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let vault = FileVault(directory: root.appendingPathComponent("latch"))
        try vault.write(Data("t".utf8), for: "session")
        try vault.write(Data("s".utf8), for: "settings")

        try vault.delete("session")
        try vault.delete("session") // deleting what is gone succeeds
        try FileVault(directory: root.appendingPathComponent("never-made")).delete("session")

        #expect(vault.read("session") == .notFound)
        #expect(vault.read("settings") == .found(Data("s".utf8)))
    }

    @Test func C5_fileVaultWritesAreAtomic() async throws {
        // Set-up: ten distinct large values for one key.
        let root = scratchDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let vault = FileVault(directory: root.appendingPathComponent("latch"))
        let values = (0..<10).map { Data(repeating: UInt8($0), count: 256 * 1024 + $0) }
        try vault.write(values[0], for: "session")

        // Act: write them concurrently while reading.
        let torn = try await withThrowingTaskGroup(of: Int.self) { group in
            for value in values {
                group.addTask {
                    try vault.write(value, for: "session"); return 0
                }
            }
            for _ in 0..<200 {
                group.addTask {
                    guard case .found(let data) = vault.read("session") else { return 1 }
                    return values.contains(data) ? 0 : 1
                }
            }
            return try await group.reduce(0, +)
        }

        // Check: every read saw one whole value; no temporary file is left behind.
        #expect(torn == 0)
        let names = try FileManager.default.contentsOfDirectory(atPath: vault.directory.path)
        #expect(names == ["session"])
    }

    @Test func C5_fileVaultKeysCannotEscapeTheDirectory() async throws {
        let root = scratchDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let vault = FileVault(directory: root.appendingPathComponent("latch"))

        try vault.write(Data("a".utf8), for: "../escape")
        try vault.write(Data("b".utf8), for: ".hidden")
        try vault.write(Data("c".utf8), for: "")
        try vault.write(Data("d".utf8), for: "device-key.K1/é")

        #expect(FileVault.fileName(for: "../escape") == "%2E%2E%2Fescape")
        #expect(FileVault.fileName(for: "device-key.K1/é") == "device-key%2EK1%2F%C3%A9")
        #expect(vault.read("../escape") == .found(Data("a".utf8)))
        #expect(vault.read("") == .found(Data("c".utf8)))
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.path) == ["latch"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: vault.directory.path).count == 4)
    }

    @Test func C5_fileVaultDefaultDirectoryFollowsXDG() {
        #expect(
            FileVault.defaultDirectory(environment: ["XDG_CONFIG_HOME": "/x/config", "HOME": "/home/a"]).path
                == "/x/config/latch")
        #expect(FileVault.defaultDirectory(environment: ["HOME": "/home/a"]).path == "/home/a/.config/latch")
        // A relative XDG_CONFIG_HOME is invalid by the XDG spec and ignored.
        #expect(
            FileVault.defaultDirectory(environment: ["XDG_CONFIG_HOME": "rel", "HOME": "/home/a"]).path
                == "/home/a/.config/latch")
    }

    @Test func C5_fileVaultKeepsASessionForTheClient() async throws {
        // Set-up: a client on a file vault signs in; a second client on the same directory restores.
        let root = scratchDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let server = SessionFakeServer()
        let vault = FileVault(directory: root.appendingPathComponent("latch"))
        let url = URL(string: "https://auth.example.com")!
        let first = LatchClient(serverURL: url, vault: vault, transport: server)
        try await first.signIn(with: await server.issueTokens())

        // Act
        let second = LatchClient(
            serverURL: url, vault: FileVault(directory: root.appendingPathComponent("latch")), transport: server)
        let outcome = await second.restoreSession()

        // Check
        #expect(outcome == .signedIn(SessionFakeServer.alice))
    }

    @Test func C5_inMemoryVaultLocksLikeAKeychain() async throws {
        let vault = InMemoryVault(items: ["session": Data("x".utf8)])

        await vault.lock()
        #expect(await vault.read("session") == .unavailable)
        await #expect(throws: VaultError.self) { try await vault.write(Data(), for: "session") }
        await #expect(throws: VaultError.self) { try await vault.delete("session") }
        await vault.unlock()

        #expect(await vault.read("session") == .found(Data("x".utf8)))
        try await vault.delete("session")
        #expect(await vault.read("session") == .notFound)
    }
}
