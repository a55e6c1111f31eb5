import ArgumentParser
import LatchClient
import LatchCore

/// `latch account security`: the running security holds (what is paused, why, until when), the
/// anti-phishing code (`GET /v1/me/security`, issue 19) and the "新设备登录时通知" switch
/// (`/v1/me/security-settings`, issue 23 §1), which `--new-device-notice on|off` moves (turning it off more
/// than 10 minutes after signing in runs the verification page for `disable_new_device_notice` first).
struct AccountSecurityCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "security",
        abstract: "Show the running security holds, the anti-phishing code and the new-device notice switch.")

    /// A switch's position on the command line.
    enum Switch: String, CaseIterable, ExpressibleByArgument {
        case on, off
    }

    @OptionGroup var global: GlobalOptions
    @OptionGroup var simulation: SensorOptions
    @OptionGroup var secrets: SecretOptions

    @Flag(help: "Print the server's answer (GET /v1/me/security) as JSON.")
    var json = false

    @Option(help: "Turn the mail about sign-ins from new devices on or off (off verifies when needed).")
    var newDeviceNotice: Switch?

    func run() async throws {
        let context = CLIContext(global)
        try await context.requireSession()
        let text = AccountSecurityText(language: context.language)
        if let newDeviceNotice {
            let on = newDeviceNotice == .on
            let settings = try await context.callVerifyingWhenAsked(
                action: LatchClient.disableNewDeviceNoticeAction, simulation: simulation, secrets: secrets
            ) { proof in
                try await context.client.updateSecuritySettings(
                    SecuritySettingsUpdate(notifyNewDevices: on, verificationToken: proof?.token))
            }
            if !json {
                context.terminal.line(context.terminal.paint(text.newDeviceNotice(settings.notifyNewDevices), .green))
            }
        }
        let status = try await context.call(context.text.connecting) { try await context.client.accountSecurity() }
        if json { return context.terminal.line(try JSONOutput.string(status)) }
        let strings = VerificationStrings(context.language)
        context.terminal.line(text.antiPhishingCode(status.antiPhishingCode))
        if newDeviceNotice == nil {
            let settings = try await context.call(context.text.connecting) {
                try await context.client.securitySettings()
            }
            context.terminal.line(text.newDeviceNotice(settings.notifyNewDevices))
        }
        if status.holds.isEmpty { return context.terminal.line(text.noHolds) }
        for hold in status.holds {
            context.terminal.line(context.terminal.paint(text.hold(hold, strings: strings), .yellow))
        }
    }
}
