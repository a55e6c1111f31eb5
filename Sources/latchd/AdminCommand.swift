import Foundation
import LatchCore
import LatchServer
import Vapor

/// `latchd admin …` (issue 12 §2): the admin API's actions for break-glass use without a key, run
/// where latchd's configuration is. It opens the same database from the `LATCH_*` variables (applying
/// any pending migration, as latchd does at start), calls the same `AdminService`, and is audited
/// with actor `console`. Output: JSON for `find`, `show` and `audit`, one line for the actions.
/// `delete` asks first (type `yes` on stdin) unless `--yes` is given (scripts).
/// Exit status: 0 done, 1 refused (e.g. no such user), 2 usage or configuration error, 3 not confirmed.
enum AdminCommand {
    /// One subcommand and its argument.
    enum Operation {
        case find(String)
        case show(String)
        case unlock(String)
        case disable(String)
        case enable(String)
        case signOut(String)
        case resetTOTP(String)
        case resetFundPassword(String)
        /// Deletes the account; `confirmed` (`--yes`) skips the question.
        case delete(String, confirmed: Bool)
        case freeze(String)
        case unfreeze(String)
        case liftHold(String)
        case audit

        /// Parses `VERB ARGUMENT` (`audit` takes none); nil when it is not a subcommand.
        init?(_ arguments: [String]) {
            switch (arguments.first, arguments.count) {
            case ("audit", 1): self = .audit
            case ("find", 2): self = .find(arguments[1])
            case ("show", 2): self = .show(arguments[1])
            case ("unlock", 2): self = .unlock(arguments[1])
            case ("disable", 2): self = .disable(arguments[1])
            case ("enable", 2): self = .enable(arguments[1])
            case ("sign-out", 2): self = .signOut(arguments[1])
            case ("reset-totp", 2): self = .resetTOTP(arguments[1])
            case ("reset-fund-password", 2): self = .resetFundPassword(arguments[1])
            case ("delete", 2) where !arguments[1].hasPrefix("-"): self = .delete(arguments[1], confirmed: false)
            case ("delete", 3):
                let rest = Array(arguments.dropFirst())
                guard rest.contains("--yes"), let id = rest.first(where: { $0 != "--yes" }), !id.hasPrefix("-") else {
                    return nil
                }
                self = .delete(id, confirmed: true)
            case ("freeze", 2): self = .freeze(arguments[1])
            case ("unfreeze", 2): self = .unfreeze(arguments[1])
            case ("lift-hold", 2): self = .liftHold(arguments[1])
            default: return nil
            }
        }

        /// Runs it; the text to print.
        func run(_ admin: AdminService) async throws -> String {
            switch self {
            case .find(let text): return try json(await admin.findUsers(matching: text, cursor: nil, limit: 100))
            case .show(let id): return try json(await admin.user(id))
            case .audit: return try json(await admin.auditLog(cursor: nil, limit: 100))
            case .unlock(let id): try await admin.unlock(id)
            case .disable(let id): try await admin.disable(id)
            case .enable(let id): try await admin.enable(id)
            case .signOut(let id): try await admin.signOut(id)
            case .resetTOTP(let id): try await admin.resetTOTP(id)
            case .resetFundPassword(let id): try await admin.resetFundPassword(id)
            case .delete(let id, _): try await admin.deleteUser(id)
            case .freeze(let id): try await admin.freeze(id)
            case .unfreeze(let id): try await admin.unfreeze(id)
            case .liftHold(let id): try await admin.liftHold(id)
            }
            return "ok"
        }

        private func json(_ value: some Encodable) throws -> String {
            let encoder = JSONEncoder()
            encoder.dateEncodingStrategy = .iso8601
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            return String(decoding: try encoder.encode(value), as: UTF8.self)
        }
    }

    static let usage = """
        usage: latchd admin COMMAND
          find TEXT                 users whose email, phone or id starts with TEXT (JSON)
          show ID                   one user in full (JSON)
          unlock ID                 clear the user's locks and failure budgets
          disable ID | enable ID    refuse every sign-in and end the sessions | allow sign-in again
          sign-out ID               end every session
          reset-totp ID             remove 2FA (the user is mailed)
          reset-fund-password ID    remove the fund password (the user is mailed)
          freeze ID | unfreeze ID   run the security reset and refuse every sign-in | allow sign-in again
                                    (unfreezing starts a security hold)
          lift-hold ID              end the user's running security hold
          delete ID [--yes]         delete the account for good, as DELETE /v1/me does (data erased, every
                                    session ended, the owner mailed); asks to type yes first, unless --yes
          audit                     the newest 100 admin audit entries (JSON)
        Mails to the user go out in the language of LANG (zh… → Simplified Chinese, else English).
        Exit status: 0 done, 1 refused (e.g. NOT_FOUND), 2 usage or configuration error, 3 not confirmed.
        """

    /// Asks on stderr whether to delete `id` and reads the answer from stdin: only `yes` goes on
    /// (no terminal, or end of input, is a no).
    static func confirmDeletion(of id: String) -> Bool {
        FileHandle.standardError.write(
            Data("latchd admin: delete account \(id) and all its data for good? Type yes to confirm > ".utf8))
        return readLine()?.trimmingCharacters(in: .whitespaces).lowercased() == "yes"
    }

    /// Runs `latchd admin ARGUMENTS` and returns the exit status.
    static func run(_ arguments: [String], config: LatchConfig) async -> Int32 {
        guard let operation = Operation(arguments) else {
            FileHandle.standardError.write(Data((usage + "\n").utf8))
            return 2
        }
        if case .delete(let id, confirmed: false) = operation, !confirmDeletion(of: id) {
            FileHandle.standardError.write(Data("\nlatchd admin: not confirmed; the account was not deleted\n".utf8))
            return 3
        }
        // No delivery worker or key reload in a command: the mails it queues (SMTP / SMS configured)
        // are rows of the durable delivery queue, which the serving latchd sends.
        var config = config
        config.runsBackgroundTasks = false
        let environment = ProcessInfo.processInfo.environment
        let tag = (environment["LANG"] ?? "").replacingOccurrences(of: "_", with: "-")
        let language = LatchLanguage(acceptLanguage: tag.split(separator: ".").first.map(String.init))
        let app: Application
        do {
            app = try await Application.make(Environment(name: config.mode.rawValue, arguments: ["latchd"]))
        } catch {
            FileHandle.standardError.write(Data("latchd admin: \(error)\n".utf8))
            return 1
        }
        var status: Int32 = 0
        do {
            try await configure(app, config)
            print(try await operation.run(AdminService.console(on: app, language: language)))
        } catch let error as LatchError {
            FileHandle.standardError.write(
                Data("latchd admin: \(error.code.rawValue) \(error.code.message(in: .en))\n".utf8))
            status = 1
        } catch let error as ConfigurationError {
            FileHandle.standardError.write(Data("latchd: configuration error: \(error)\n".utf8))
            status = 2
        } catch {
            FileHandle.standardError.write(Data("latchd admin: \(String(describing: error))\n".utf8))
            status = 1
        }
        try? await app.asyncShutdown()
        return status
    }
}
