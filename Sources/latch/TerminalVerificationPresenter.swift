import Foundation
import LatchClient
import LatchCore

/// The verification page in a terminal: prints each screen the SDK's flow decides (title, message,
/// detail, buttons) and answers it — from `--simulate`, `--code` and `--fund-password-stdin` first,
/// else by asking the person. It decides nothing about the flow itself.
struct TerminalVerificationPresenter: VerificationPresenter {
    let terminal: Terminal
    let text: CLIText
    let page: VerificationPage
    let answers: SensorAnswers
    let secrets: VerificationSecrets
    /// Where the emailed code comes from (issue 30 §3); `nil`: the person types it.
    var emailCodes: VerificationEmailCodes? = nil

    func present(_ screen: VerificationScreen, respond: VerificationResponder) async {
        let previous = page.onShow?.screen
        // A busy screen shown again unchanged is not drawn twice; every other screen is drawn and answered.
        guard page.show(screen, respond: respond) || !screen.isBusy else { return }
        if let previous, Self.resendWaitTicked(from: previous, to: screen) {
            // Issue 30 §3: only the resend button's seconds changed; the question on screen stands (typing `r`
            // reads the button as it is now). Once it can be used, say so.
            if screen.button(.sendCode)?.isEnabled == true, previous.button(.sendCode)?.isEnabled != true {
                terminal.line(terminal.paint(text.resendReady, .dim))
            }
            return
        }
        render(screen)
        guard !screen.isBusy else { return }
        await answer(screen, respond: respond)
    }

    func dismiss(announcing announcement: VerificationAnnouncement) async {
        terminal.line(terminal.paint(announcement.text, .bold))
    }

    /// A terminal has no Settings app: it says how to change the simulated device, and the page stays.
    func openSettings() async {
        terminal.line(text.settingsHint)
        guard let (screen, respond) = page.onShow else { return }
        await answer(screen, respond: respond)
    }

    // MARK: - Drawing

    private func render(_ screen: VerificationScreen) {
        if screen.isBusy {
            terminal.line(terminal.paint("… \(screen.message)", .dim))
            return
        }
        terminal.line(terminal.paint("【\(screen.title)】", .bold))
        if let operation = screen.operationDescription {
            terminal.line(operation)
        }
        if let requirement = screen.requirement, page.isNewRequirement(requirement) {
            // Issue 30 §3: what the policy asks for, once per verification.
            terminal.line(terminal.paint(requirement, .bold))
        }
        let tone: Terminal.Style? = screen.tone == .warning ? .yellow : nil
        terminal.line(tone.map { terminal.paint(screen.message, $0) } ?? screen.message)
        if let detail = screen.detail {
            terminal.line(tone.map { terminal.paint(detail, $0) } ?? detail)
        }
        if let countdown = screen.countdown {
            terminal.line(terminal.paint(countdown.remaining, .bold))
            terminal.line(countdown.until)
        }
        let buttons = screen.buttons.filter(\.isEnabled).map { "[\($0.title)]" }
        if !buttons.isEmpty {
            terminal.line(terminal.paint(buttons.joined(separator: " "), .dim))
        }
    }

    // MARK: - Answering

    private func answer(_ screen: VerificationScreen, respond: VerificationResponder) async {
        if await answers.peek() == .passcode, screen.button(.unlockWithPasscode)?.isEnabled == true {
            // After a lockout: "输入设备密码解锁…" / "Unlock … with Passcode"; the passcode prompt then takes the
            // `passcode` step.
            return respond(.tapped(.unlockWithPasscode))
        }
        switch screen.kind {
        case .preparing, .biometric, .biometricChecking:
            // The server or the simulated sensor answers these.
            break
        case .permissionExplanation:
            if await answers.hasScript || !terminal.inputIsTerminal {
                respond(.tapped(.continue))
            } else {
                await choose(screen, respond: respond)
            }
        case .biometricRetry, .permissionDenied:
            await chooseAfterBiometrics(screen, respond: respond)
        case .oneTimeCode:
            if let code = await secrets.takeCode() {
                respond(.submittedCode(VerificationSecret(code)))
            } else if await secrets.hasFundPassword, screen.button(.otherMethod) != nil {
                respond(.tapped(.otherMethod))
            } else {
                await askSecret(screen, respond: respond, isCode: true)
            }
        case .fundPassword:
            if let password = await secrets.takeFundPassword() {
                respond(.submittedFundPassword(VerificationSecret(password)))
            } else if await secrets.hasCode, screen.button(.otherMethod) != nil {
                respond(.tapped(.otherMethod))
            } else {
                await askSecret(screen, respond: respond, isCode: false)
            }
        case .startFailed, .expired:
            if terminal.inputIsTerminal {
                await choose(screen, respond: respond)
            } else {
                page.giveUp(screen.message, respond: respond)
            }
        case .noMethodAvailable:
            page.giveUp(screen.message, respond: respond)
        case .securityHold, .policyLimit, .newValueLocked:
            // Issue 19 §2, issue 30 §3: the page is printed once; "关闭" / "Close" ends it, and `verify` exits
            // with 4, 5 or 6.
            respond(.tapped(.cancel))
        case .factorPassed:
            // Issue 30 §3: the step was printed; on to the next factor.
            respond(.tapped(.continue))
        case .emailCode:
            await answerEmailCode(screen, respond: respond)
        case .passkey:
            // Busy pages (the software authenticator answers at once) were not answered above; here the
            // passkey page waits after a refused or failed attempt.
            await chooseWithoutScript(screen, giveUpMessage: screen.message, respond: respond)
        }
    }

    /// The emailed code's page (issue 30 §3): "发送验证码" / "Send Code" first (counting the outbox's codes
    /// before; a person at a terminal chooses), then the code from the outbox once, else typed. A script
    /// without the outbox moves on to a secret it was given.
    private func answerEmailCode(_ screen: VerificationScreen, respond: VerificationResponder) async {
        let readsOutbox = await emailCodes?.readsOutbox == true
        if screen.input == nil {
            if terminal.inputIsTerminal, !readsOutbox { return await choose(screen, respond: respond) }
            guard screen.button(.sendCode)?.isEnabled == true else { return }
            do {
                try await emailCodes?.willSend()
            } catch {
                return page.giveUp(outboxFailure(error), respond: respond)
            }
            return respond(.tapped(.sendCode))
        }
        if readsOutbox {
            do {
                if let code = try await emailCodes?.take() {
                    return respond(.submittedCode(VerificationSecret(code)))
                }
            } catch {
                return page.giveUp(outboxFailure(error), respond: respond)
            }
        }
        let hasOtherSecret = await secrets.hasCode ? true : await secrets.hasFundPassword
        if !terminal.inputIsTerminal, hasOtherSecret, screen.button(.otherMethod) != nil {
            return respond(.tapped(.otherMethod))
        }
        await askSecret(screen, respond: respond, isCode: true)
    }

    /// Whether `screen` is the emailed code's entry shown again only because its resend wait ticked.
    static func resendWaitTicked(from previous: VerificationScreen, to screen: VerificationScreen) -> Bool {
        previous.kind == .emailCode && screen.kind == .emailCode && previous.input != nil && screen.input != nil
            && !previous.isBusy && !screen.isBusy && previous.message == screen.message
            && previous.detail == screen.detail
    }

    /// The line for a failure to read the outbox.
    private func outboxFailure(_ error: any Error) -> String {
        (error as? CLIFailure)?.message ?? text.noOutbox
    }

    /// After a failed or refused biometric prompt: the next scripted answer picks the page's button
    /// ("other-method", "password", "cancel"), a sensor answer means "再试一次" / "Try Again".
    private func chooseAfterBiometrics(_ screen: VerificationScreen, respond: VerificationResponder) async {
        switch await answers.peek() {
        case .otherMethod? where screen.button(.otherMethod) != nil:
            _ = await answers.take()
            respond(.tapped(.otherMethod))
        case .password? where screen.button(.usePassword) != nil:
            _ = await answers.take()
            respond(.tapped(.usePassword))
        case .cancel? where screen.button(.retry) == nil:
            _ = await answers.take()
            respond(.tapped(.cancel))
        case .some:
            if screen.button(.retry) != nil {
                respond(.tapped(.retry))
            } else {
                await chooseWithoutScript(screen, respond: respond)
            }
        case nil:
            await chooseWithoutScript(screen, respond: respond)
        }
    }

    /// A page that waits for a choice: a person chooses; a script moves on to the secret it was given,
    /// else gives up with `giveUpMessage` (after a failed passkey, the page's own message: trying the
    /// same passkey again would not change the answer).
    private func chooseWithoutScript(
        _ screen: VerificationScreen, giveUpMessage: String? = nil, respond: VerificationResponder
    ) async {
        if terminal.inputIsTerminal {
            await choose(screen, respond: respond)
        } else if await secrets.hasFundPassword, screen.button(.usePassword) != nil {
            respond(.tapped(.usePassword))
        } else if await secrets.hasCode, screen.button(.otherMethod) != nil {
            respond(.tapped(.otherMethod))
        } else {
            page.giveUp(giveUpMessage ?? text.noAnswerLeft, respond: respond)
        }
    }

    /// Lists the buttons and reads the person's choice (a number or the button's title).
    private func choose(_ screen: VerificationScreen, respond: VerificationResponder) async {
        let buttons = screen.buttons.filter(\.isEnabled)
        guard !buttons.isEmpty else { return }
        let menu = buttons.enumerated().map { "\($0.offset + 1)) \($0.element.title)" }.joined(separator: "  ")
        while true {
            guard let line = await terminal.ask("\(menu)\n> ") else {
                return giveUpOrCancel(respond)
            }
            let typed = line.trimmingCharacters(in: .whitespaces)
            if let number = Int(typed), buttons.indices.contains(number - 1) {
                return respond(.tapped(buttons[number - 1].id))
            }
            if let button = buttons.first(where: { $0.title == typed }) {
                return respond(.tapped(button.id))
            }
        }
    }

    /// Reads a code or the fund password (without echo); `c` cancels, `o` switches method.
    private func askSecret(_ screen: VerificationScreen, respond: VerificationResponder, isCode: Bool) async {
        let label = screen.input?.label ?? screen.message
        guard let line = await terminal.ask("\(label)\(text.secretKeys(screen)): ", secret: !isCode) else {
            return giveUpOrCancel(respond)
        }
        let typed = line.trimmingCharacters(in: .whitespaces)
        switch typed.lowercased() {
        case "c", "":
            respond(.tapped(.cancel))
        case "o" where screen.button(.otherMethod) != nil:
            respond(.tapped(.otherMethod))
        case "b" where screen.button(.useBiometrics) != nil:
            respond(.tapped(.useBiometrics))
        case "p" where screen.button(.usePasskey) != nil:
            respond(.tapped(.usePasskey))
        case "r" where screen.button(.sendCode) != nil:
            // "重新发送" / "Resend Code" (issue 30 §3), as the button is now: while it waits, its seconds.
            guard !page.tap(.sendCode), let (current, respond) = page.onShow else { return }
            terminal.line(terminal.paint(current.button(.sendCode)?.title ?? text.noAnswerLeft, .dim))
            await askSecret(current, respond: respond, isCode: isCode)
        default:
            respond(
                isCode ? .submittedCode(VerificationSecret(typed)) : .submittedFundPassword(VerificationSecret(typed)))
        }
    }

    /// The input ended: a person at a terminal cancelled (Ctrl-D); a script ran out of answers.
    private func giveUpOrCancel(_ respond: VerificationResponder) {
        if terminal.inputIsTerminal {
            respond(.tapped(.cancel))
        } else {
            page.giveUp(text.noAnswerLeft, respond: respond)
        }
    }
}
