import Crypto
import FluentKit
import Foundation
import LatchCore

/// Imports users line by line (issue 45 §1): each line is validated (a pure `UserImportRecord`), matched
/// to the user it was before, checked for conflicts, then written with its `account_imported` event.
/// Lines are written in batches, one transaction each (certain new users together, `UserImportBatchPlan`): a kill in the middle leaves whole batches, and the
/// same file run again finds those lines unchanged and writes the rest, so every line is in exactly once.
/// A refused line writes nothing; a batch a database error stops is rolled back and run again line by line.
struct UserImporter: Sendable {
    let latch: LatchServices
    let database: any Database
    let allowLegacy: Bool
    var dryRun = false
    /// Lines per transaction.
    var batchSize = 500

    private var store: UserImportStore { UserImportStore(secrets: latch.secrets, accounts: latch.accounts) }

    /// One line of the file (or one user of an API batch) and its number.
    struct Line: Sendable {
        let number: Int
        let content: Content

        init(number: Int, text: Substring) {
            self.number = number
            self.content = .text(text)
        }

        init(number: Int, parsed: ImportedUserLine?) {
            self.number = number
            self.content = .parsed(parsed)
        }

        init(number: Int, content: Content) {
            self.number = number
            self.content = content
        }

        /// The line as read, or already decoded (nil: it did not decode).
        enum Content: Sendable {
            case text(Substring)
            case parsed(ImportedUserLine?)
            /// Over `UserImportFile.maximumLineBytes`: not kept.
            case tooLong
        }

        /// Whether there is nothing on the line.
        var isBlank: Bool {
            if case .text(let text) = content { return text.allSatisfy(\.isWhitespace) }
            return false
        }

        /// The decoded line, or nil when it is not a line of the format.
        var decoded: ImportedUserLine? {
            switch content {
            case .text(let text): try? UserImporter.decoder.decode(ImportedUserLine.self, from: Data(text.utf8))
            case .parsed(let parsed): parsed
            case .tooLong: nil
            }
        }
    }

    /// What happened to one line.
    enum Outcome: Sendable, Equatable {
        case imported, updated, unchanged
        case refused(UserImportRefusal)
    }

    /// Runs one batch of lines into `report`.
    func run(_ batch: [Line], into report: inout UserImportReport) async throws {
        let lines = batch.filter { !$0.isBlank }
        guard !lines.isEmpty else { return }
        let outcomes: [Outcome]
        do {
            outcomes = try await database.tracedTransaction { try await importBatch(lines, on: $0) }
        } catch {
            // One line the checks could not foresee (the database refused it): each line on its own.
            var each: [Outcome] = []
            for line in lines {
                do {
                    each.append(try await database.tracedTransaction { try await importLine(line, on: $0) })
                } catch {
                    each.append(
                        .refused(UserImportRefusal(reason: "database_refused", detail: "the database refused the line"))
                    )
                }
            }
            outcomes = each
        }
        for (line, outcome) in zip(lines, outcomes) {
            switch outcome {
            case .imported: report.imported += 1
            case .updated: report.updated += 1
            case .unchanged: report.unchanged += 1
            case .refused(let refusal): report.refuse(line: line.number, refusal)
            }
        }
    }

    /// One batch on `transaction`: the lines `UserImportBatchPlan` leaves one by one first, in file order,
    /// then the certain new users together. They share no key with any other line of the batch, so the
    /// order between the two does not change any line's outcome.
    func importBatch(_ lines: [Line], on transaction: any Database) async throws -> [Outcome] {
        let validated: [(parsed: ImportedUserLine, record: UserImportRecord)?] = lines.map { line in
            guard let parsed = line.decoded,
                case .success(let record) = UserImportRecord.validate(parsed, allowLegacy: allowLegacy)
            else { return nil }
            return (parsed, record)
        }
        let known = try await store.known(of: validated.compactMap { $0?.record }, on: transaction)
        let plan = UserImportBatchPlan.plan(validated.map { $0?.record }, known: known)
        var outcomes = [Outcome](repeating: .imported, count: lines.count)
        for index in plan.oneByOne { outcomes[index] = try await importLine(lines[index], on: transaction) }
        let users = plan.together.compactMap { index in
            validated[index].map {
                UserImportStore.NewUser(id: UUID(), record: $0.record, digest: Self.digest(of: $0.parsed))
            }
        }
        guard !dryRun else { return outcomes }
        let now = latch.clock.epochSeconds
        try await store.insertTogether(users, now: now, on: transaction)
        // No hold and no notice (issue 45 §3): one security-log event a user, and its outbound event.
        try await latch.events.recordEach(
            .accountImported, users: users.map(\.id), now: now, actor: "operator", on: transaction)
        return outcomes
    }

    /// One line on `transaction`: every check before any write, so a refusal leaves nothing.
    func importLine(_ line: Line, on transaction: any Database) async throws -> Outcome {
        if case .tooLong = line.content { return .refused(.lineTooLong) }
        guard let parsed = line.decoded else { return .refused(.invalidJSON) }
        let record: UserImportRecord
        switch UserImportRecord.validate(parsed, allowLegacy: allowLegacy) {
        case .success(let valid): record = valid
        case .failure(let refusal): return .refused(refusal)
        }
        let digest = Self.digest(of: parsed)
        let match: UserImportStore.Match
        do { match = try await store.match(record, on: transaction) } catch let refusal as UserImportRefusal {
            return .refused(refusal)
        }
        let now = latch.clock.epochSeconds
        switch match {
        case .imported(_, let known) where known == digest:
            return .unchanged
        case .imported(let user, _):
            if let conflict = try await store.conflict(of: record, user: user, on: transaction) {
                return .refused(conflict)
            }
            if !dryRun { try await store.update(user, to: record, digest: digest, now: now, on: transaction) }
            return .updated
        case .none:
            if let conflict = try await store.conflict(of: record, user: nil, on: transaction) {
                return .refused(conflict)
            }
            guard !dryRun else { return .imported }
            let user = try await store.insert(record, digest: digest, now: now, on: transaction)
            // No hold and no notice (issue 45 §3): one security-log event, and its outbound event.
            try await latch.events.record(
                .accountImported, user: user, ip: nil, now: now, actor: "operator", on: transaction)
            return .imported
        }
    }

    /// The digest of a line's content (keys sorted, so spacing and key order do not count).
    static func digest(of line: ImportedUserLine) -> String {
        Hex.lowercase(SHA256.hash(data: (try? digestEncoder.encode(line)) ?? Data()))
    }

    /// One decoder and one encoder for every line (both are safe to share once configured).
    static let decoder = JSONDecoder()
    private static let digestEncoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// Writes the import's one admin audit entry (its counts) and answers the report: for a file and for a batch alike.
    static func audited(_ report: UserImportReport, by admin: AdminService) async throws -> UserImportReport {
        try await admin.audit(
            report.dryRun ? "import_users_dry_run" : "import_users", target: nil,
            detail:
                "imported=\(report.imported) updated=\(report.updated) unchanged=\(report.unchanged) refused=\(report.refusedCount)",
            result: "ok", on: admin.appDatabase)
        return report
    }
}
