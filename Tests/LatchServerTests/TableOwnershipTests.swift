import Foundation
import Testing

/// Issue 44 §1, closed world: a table's statements live in its store. The `users` table has one owner,
/// `AccountStore` (its files are `Accounts/AccountStore*.swift`): every statement whose subject is `users`
/// and every Fluent query or save of `User` is there, or in a file on `usersElsewhere` with its reason.
/// More generally a file of LatchServer with SQL (raw SQL, SQLKit or a Fluent query) is a store (by its
/// name: `…Store….swift`, `…Statements.swift`), a migration, a cross-table script or infrastructure on
/// the lists below with its reason. A new file with SQL outside a store fails here, and so does a listed
/// file that no longer has any (the lists only shrink honestly).
@Suite("Issue 44 §1: stores own their tables")
struct TableOwnershipTests {
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/LatchServer")

    /// Files other than `AccountStore`'s that hold a statement on `users`, each with why.
    static let usersElsewhere: [String: String] = [
        "Containment/AddHoldLiftedAt.swift": "a migration's backfill of the new column",
        "UserImport/UserImportStore+Together.swift":
            "issue 45 §1: a batch's new users in one multi-row statement a table (no cached profile to drop)",
        "UserImport/UserExportStore.swift": "issue 45: the export's paged read of every account with its rows"
    ]

    /// Scripts that change several tables in one transaction on purpose, with their closed-world tests.
    static let crossTableScripts: [String: String] = [
        "Containment/SecurityReset.swift": "the security reset (SecurityResetClosedWorldTests)",
        "Containment/SecurityReset+Planted.swift": "the password reset's end of what a thief planted (issue 28 §2)",
        "Accounts/AccountDeletion.swift": "the erasure of an account's rows (AccountDeletionTests' closed world)"
    ]

    /// The database's own plumbing, not any table's.
    static let infrastructure: [String: String] = [
        "Support/LatchApplication+Database.swift": "opens the database (SQLite's pragmas)",
        "Health/ReadinessCheck.swift": "`SELECT 1` for /health/ready",
        "Support/SingleUse.swift": "the one conditional UPDATE every single-use row shares"
    ]

    /// Statements on `users` (writes; reads whose first `FROM` is `users`, not a sub-query's) and Fluent
    /// queries and saves of `User`.
    static let usersStatement = try! NSRegularExpression(
        pattern: #"\b(UPDATE|INSERT INTO|DELETE FROM) users\b|(?<!\()SELECT\b(?:(?!\bFROM\b)[^"(])*\bFROM users\b"#
            + #"|\bUser\.(find|query)\(|\b[a-z]*[uU]ser\.(create|save|update|delete)\(on:|into: "users""#)

    /// Any SQL: raw or SQLKit statements, Fluent queries and saves (a model's schema migration is not).
    /// A Fluent `find` is a model type's (`Session.find(…)`); a store's `find` (`store.find(…)`) is not SQL.
    static let anySQL = try! NSRegularExpression(
        pattern: #"\.sql\b|SQLQueryString|\.query\(on:|\b[A-Z]\w*\.find\(|\.(save|create|update|delete)\(on:"#)

    static func matches(_ expression: NSRegularExpression, _ text: String) -> Bool {
        expression.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }

    /// Every Swift file of LatchServer (paths relative to its folder) with its text, comment lines left
    /// out (a doc comment's example of an embedding app's query is not a statement of latchd's).
    static func files() throws -> [(path: String, text: String)] {
        let enumerator = try #require(FileManager.default.enumerator(atPath: sources.path))
        var found: [(String, String)] = []
        for case let path as String in enumerator where path.hasSuffix(".swift") {
            let text = try String(contentsOf: sources.appendingPathComponent(path), encoding: .utf8)
            found.append((path, Self.withoutCommentLines(text)))
        }
        return found.sorted { $0.0 < $1.0 }
    }

    /// `text` without its lines that are only a comment (`//`, `///`).
    static func withoutCommentLines(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.drop(while: { $0 == " " }).hasPrefix("//") }
            .joined(separator: "\n")
    }

    static func isAccountStore(_ path: String) -> Bool {
        path.hasPrefix("Accounts/AccountStore")
    }

    static func isStoreByName(_ path: String) -> Bool {
        let name = (path as NSString).lastPathComponent
        return name.contains("Store") || name.hasSuffix("Statements.swift")
    }

    /// A migration's file: it declares a migration and no service (an `enum`, an `extension`, or a struct
    /// that is not a migration).
    static func isMigration(_ text: String) -> Bool {
        guard text.contains("AsyncMigration") else { return false }
        let declarations = text.split(separator: "\n").filter {
            $0.hasPrefix("struct ") || $0.hasPrefix("enum ") || $0.hasPrefix("extension ") || $0.hasPrefix("actor ")
        }
        return declarations.allSatisfy { $0.hasPrefix("struct ") && $0.contains("AsyncMigration") }
    }

    @Test("44 §1: every statement on users is AccountStore's (or on the short list with its reason)")
    func test_44_1_usersHasOneOwner() throws {
        let files = try Self.files()
        #expect(
            files.filter { Self.isAccountStore($0.path) && Self.matches(Self.usersStatement, $0.text) }.count >= 4,
            "the scan finds AccountStore's own statements (it reads the sources)")
        for (path, text) in files where !Self.isAccountStore(path) && Self.usersElsewhere[path] == nil {
            if Self.matches(Self.usersStatement, text) {
                Issue.record("\(path) has a statement on users: move it into AccountStore")
            }
        }
        for path in Self.usersElsewhere.keys
        where !files.contains(where: { $0.path == path && Self.matches(Self.usersStatement, $0.text) }) {
            Issue.record("\(path) no longer has a statement on users: take it off usersElsewhere")
        }
    }

    /// AccountStore's functions that write `users` without dropping the profile, each with why: they change
    /// no column (a lock taken by a write that sets a column to itself).
    static let writesKeepingTheProfile: [String: String] = [
        "lockUserRow": "sets email_verified to itself: the row lock, no change",
        "takeSQLiteWriteLock": "updates no row: SQLite's write lock, no change"
    ]

    /// A write of `users` (a statement or a Fluent save).
    static let usersWrite = try! NSRegularExpression(
        pattern: #"\b(UPDATE|INSERT INTO|DELETE FROM) users\b|\.(save|create|update|delete)\(on:"#)

    /// `text`'s functions, each as its name and the text up to the next function.
    static func functions(of text: String) -> [(name: String, body: String)] {
        let head = try! NSRegularExpression(pattern: #"\bfunc (\w+)"#)
        let whole = NSRange(text.startIndex..., in: text)
        let starts = head.matches(in: text, range: whole)
        return starts.enumerated().map { index, match in
            let end = index + 1 < starts.count ? starts[index + 1].range.location : whole.length
            let body = NSRange(location: match.range.location, length: end - match.range.location)
            return (String(text[Range(match.range(at: 1), in: text)!]), String(text[Range(body, in: text)!]))
        }
    }

    @Test("44 §1: every function of AccountStore that writes users drops the cached profile")
    func test_44_1_everyUsersWriteDropsTheProfile() throws {
        let functions = try Self.files().filter { Self.isAccountStore($0.path) }.flatMap { Self.functions(of: $0.text) }
        let writing = functions.filter { Self.matches(Self.usersWrite, $0.body) }
        #expect(writing.count >= 10, "the scan finds AccountStore's writes (it reads the sources)")
        for function in writing where Self.writesKeepingTheProfile[function.name] == nil {
            if !function.body.contains("profiles.forget(") {
                Issue.record("AccountStore.\(function.name) writes users but keeps the cached profile: drop it")
            }
        }
        // The check can fail: a write without the drop is found.
        let planted = Self.functions(of: "func liftHold() { sql.raw(\"UPDATE users SET a = 1\") }\nfunc next() {}")
        #expect(planted.map(\.name) == ["liftHold", "next"])
        #expect(Self.matches(Self.usersWrite, planted[0].body) && !planted[0].body.contains("profiles.forget("))
    }

    @Test("44 §1: SQL only in stores, migrations, the cross-table scripts and infrastructure")
    func test_44_1_sqlOnlyInStores() throws {
        let files = try Self.files()
        let withSQL = Set(files.filter { Self.matches(Self.anySQL, $0.text) }.map(\.path))
        #expect(withSQL.count > 50, "the scan finds the stores' SQL (it reads the sources)")
        for (path, text) in files where withSQL.contains(path) {
            let declared =
                Self.isStoreByName(path) || Self.isMigration(text) || Self.crossTableScripts[path] != nil
                || Self.infrastructure[path] != nil
            if !declared { Issue.record("\(path) has SQL but is no store: move its statements into its table's store") }
        }
        let listed = Array(Self.crossTableScripts.keys) + Array(Self.infrastructure.keys)
        for path in listed where !withSQL.contains(path) {
            Issue.record("\(path) has no SQL any more (or is gone): take it off its list")
        }
    }

    @Test("44 §1: the checks can fail (a service's statement on users, a service with SQL)")
    func test_44_1_theScanFindsWhatItForbids() {
        #expect(Self.matches(Self.usersStatement, #"sql.raw("UPDATE users SET frozen_at = 1")"#))
        #expect(Self.matches(Self.usersStatement, #""SELECT frozen_at FROM users WHERE id = 1""#))
        #expect(Self.matches(Self.usersStatement, "try await User.find(id, on: db)"))
        #expect(Self.matches(Self.usersStatement, "try await user.save(on: db)"))
        // Another table's statement that reads users in a sub-query is that table's.
        #expect(
            !Self.matches(Self.usersStatement, #""INSERT INTO sessions SELECT 1 WHERE EXISTS (SELECT 1 FROM users)""#))
        #expect(!Self.matches(Self.usersStatement, #""SELECT s.id FROM sessions s JOIN users u ON u.id = s.user_id""#))
        #expect(Self.matches(Self.anySQL, "try await database.sql.raw(\"SELECT 1\").run()"))
        #expect(Self.matches(Self.anySQL, "try await Session.query(on: db).all()"))
        #expect(Self.matches(Self.anySQL, "try await VerificationToken.find(SecretBox.hash(token), on: db)"))
        #expect(!Self.matches(Self.anySQL, "try await latch.passkeys.find(rawID: id, on: db)"))
        #expect(!Self.matches(Self.anySQL, Self.withoutCommentLines("    /// try await Session.query(on: latch.db)")))
        #expect(Self.matches(Self.anySQL, Self.withoutCommentLines("// a note\ntry await Session.query(on: db)")))
        #expect(!Self.isStoreByName("Containment/AccountFreezing.swift"))
        #expect(Self.isStoreByName("Accounts/EmailCodeStore.swift"))
        #expect(Self.isMigration("struct AddX: AsyncMigration {}\n"))
        #expect(!Self.isMigration("enum AccountDisabling {}\nstruct AddX: AsyncMigration {}\n"))
    }
}
