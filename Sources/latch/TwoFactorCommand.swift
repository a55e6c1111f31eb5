import ArgumentParser

/// `latch 2fa`: TOTP two-factor authentication (D1).
struct TwoFactorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "2fa", abstract: "Turn two-factor authentication (an authenticator app) on or off.",
        subcommands: [TwoFactorEnableCommand.self, TwoFactorDisableCommand.self])
}
