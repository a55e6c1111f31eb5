import FluentKit
import Foundation
import LatchCore

/// Writes every user as one import line (issue 45 §1): the file is created 0600 before anything is written
/// to it, and filled a page at a time. Password hashes go out as they are stored (latchd's own as
/// `latch_bcrypt_sha256`, an imported one not yet replaced as it came in); TOTP secrets only when asked.
/// latchd's own recovery codes and known devices are keyed hashes under `LATCH_SECRET_KEY` and do not leave:
/// docs/IMPORT.md says what that means for a move.
struct UserExporter: Sendable {
    let latch: LatchServices
    let database: any Database
    var pageSize = 1_000

    private var store: UserExportStore { UserExportStore() }

    func export(to path: String, includeTOTPSecrets: Bool) async throws -> Int {
        guard FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600]),
            let handle = FileHandle(forWritingAtPath: path)
        else { throw UserImportFileError.unreadable(path) }
        defer { try? handle.close() }
        // An existing file keeps its mode through createFile: make it 0600 in any case.
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var after: UUID?
        var count = 0
        while true {
            let users = try await store.page(after: after, limit: pageSize, on: database)
            guard let last = users.last else { break }
            let ids = users.map(\.id)
            let identities = Dictionary(grouping: try await store.identities(of: ids, on: database), by: \.0)
            let funds = try await store.fundPasswords(of: ids, on: database)
            let totps = includeTOTPSecrets ? try await store.sealedTOTPSecrets(of: ids, on: database) : [:]
            let codes = try await store.importedRecoveryCodes(of: ids, on: database)
            var chunk = Data()
            for user in users {
                let line = try self.line(
                    user, identities: identities[user.id] ?? [], fund: funds[user.id], sealedTOTP: totps[user.id],
                    recoveryCodes: codes[user.id] ?? [])
                chunk.append(try encoder.encode(line))
                chunk.append(UInt8(ascii: "\n"))
            }
            try handle.write(contentsOf: chunk)
            count += users.count
            after = last.id
        }
        return count
    }

    private func line(
        _ user: UserExportStore.UserRow, identities: [(UUID, String, String)], fund: String?, sealedTOTP: String?,
        recoveryCodes: [String]
    ) throws -> ImportedUserLine {
        var line = ImportedUserLine()
        line.externalId = user.externalID ?? user.id.uuidString.lowercased()
        line.email = user.email
        line.emailVerified = user.emailVerified
        line.nickname = user.nickname
        line.createdAt = ImportedDate(epochSeconds: user.createdAt)
        line.passwordHash = user.passwordHash.map(Self.exported)
        line.fundPasswordHash = fund.map(Self.exported)
        var others: [ImportedUserLine.Identity] = []
        for (_, provider, subject) in identities {
            switch SignInProvider(rawValue: provider) {
            case .phone: line.phone = subject
            case .apple: others.append(.init(provider: "apple", sub: subject))
            case .wechat:
                let unionid = subject.hasPrefix("unionid:") ? String(subject.dropFirst(8)) : nil
                let openid = subject.hasPrefix("openid:") ? String(subject.dropFirst(7)) : nil
                others.append(.init(provider: "wechat", unionid: unionid, openid: openid))
            case .email, nil: break
            }
        }
        line.identities = others.isEmpty ? nil : others
        if let sealedTOTP {
            line.totp = .init(
                secret: Base32.encode(try latch.secrets.open(sealedTOTP)), algorithm: "SHA1", digits: 6, period: 30)
            let imported = recoveryCodes.compactMap(ImportedPasswordHash.inRecoveryCodeKey)
            line.recoveryCodes = imported.isEmpty ? nil : imported.map { ImportedHashValue(text: $0.stored) }
        }
        line.disabled = user.disabled ? true : nil
        line.frozen = user.frozen ? true : nil
        line.passwordChangeRequired = user.passwordChangeRequired ? true : nil
        return line
    }

    /// A password column as the export writes it.
    static func exported(_ column: String) -> ImportedHashValue {
        if column.hasPrefix(ImportedPasswordHash.columnPrefix) {
            return ImportedHashValue(text: String(column.dropFirst(ImportedPasswordHash.columnPrefix.count)))
        }
        return ImportedHashValue(text: LatchPasswordExport(hash: column).text)
    }
}
