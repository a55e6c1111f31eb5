import ArgumentParser

/// `latchd admin …` (issue 12 §2): the admin API's actions for break-glass use without a key, run
/// where latchd's configuration is. Each subcommand opens the same database from the `LATCH_*`
/// variables (applying any pending migration, as latchd does at start), calls the same `AdminService`,
/// and is audited with actor `console` (`AdminConsole`). Output: JSON for `find`, `show` and `audit`,
/// `ok` for the actions; `policy` prints the verification policy latchd runs (issue 30). `delete` asks first (type `yes` on stdin) unless `--yes` is given (scripts).
/// Exit status: 0 done, 1 refused (e.g. no such user), 2 usage or configuration error, 3 not confirmed.
struct AdminCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "admin",
        abstract: "An operator's action on the configured database, without an admin key (break-glass).",
        discussion: """
            Opens the database of latchd's LATCH_* configuration (applying pending migrations, as latchd does \
            at start) and calls the admin API's service, audited as `console`. find, show and audit print JSON; \
            the actions print ok. Mails to the user go out in the language of LANG (zh… → Simplified Chinese, \
            else English).
            Exit status: 0 done, 1 refused (e.g. NOT_FOUND), 2 usage or configuration error, 3 not confirmed.
            """,
        subcommands: [
            AdminFindCommand.self, AdminShowCommand.self, AdminUnlockCommand.self, AdminDisableCommand.self,
            AdminEnableCommand.self, AdminSignOutCommand.self, AdminResetTOTPCommand.self,
            AdminResetFundPasswordCommand.self, AdminFreezeCommand.self, AdminUnfreezeCommand.self,
            AdminLiftHoldCommand.self, AdminDeleteCommand.self, AdminAuditCommand.self, AdminPolicyCommand.self,
            AdminEventStreamsCommand.self, AdminImportCommand.self, AdminExportUsersCommand.self
        ]
    )

    /// The help of the `ID` argument every action on one user takes.
    static let userID = ArgumentHelp("The user's id (see `latchd admin find`).", valueName: "id")

    /// `latchd admin` without a subcommand: a usage error (exit status 2) that lists them.
    func run() throws {
        throw LatchdFailure.usage(Latchd.helpMessage(for: Self.self))
    }
}
