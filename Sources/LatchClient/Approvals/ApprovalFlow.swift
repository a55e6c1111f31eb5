import Foundation
import LatchCore

/// The phone's approval screen (issue 43 §3) as a pure state machine: load what asks → show who asks
/// (client, platform, IP address, time, same network) and three numbers → the user picks one → Face ID on
/// the seed's verification page (the SDK's `VerificationFlow`, unchanged) → approved; or deny, or "this
/// wasn't me" (a freeze), or it expires, or the number was wrong. `ApprovalDriver` runs it.
///
///     var flow = ApprovalFlow(subject: .signIn(link), language: .zhHans)
///     let action = flow.start()                          // .load(.signIn(link), screen: loading)
///     flow.loaded(.signIn(details))                      // .show(choosing)
///     flow.userPickedNumber("42")                        // .verifySignIn(context, number: "42", screen:)
///     flow.verificationFinished(.passed(token: "vt"))    // .sendApproval(link, number: "42", token: "vt", …)
///     flow.decisionSent()                                // .finish(.approved, screen:)
public struct ApprovalFlow: Sendable {
    /// What to do next.
    public enum Action: Sendable, Equatable {
        /// Fetch what asks (`GET /v1/approvals/{id}` or `GET /v1/verifications/{id}`), showing `screen`.
        case load(ApprovalSubject, screen: ApprovalScreen)
        /// Show `screen` and wait for the user.
        case show(ApprovalScreen)
        /// Run the verification page for `approve_sign_in` (bound to the approval id), showing `screen`.
        case verifySignIn(VerificationContext, number: String, screen: ApprovalScreen)
        /// Run the verification page over the pushed verification, every attempt with `number`.
        case verifyOnPhone(PhoneVerificationDetails, number: String, screen: ApprovalScreen)
        /// Send the sign-in's approval (`POST /v1/approvals/{id}/decision`).
        case sendApproval(ApprovalLink, number: String, verificationToken: String, screen: ApprovalScreen)
        /// Send the denial (a decision `deny`, or `POST /v1/verifications/{id}/deny`).
        case sendDenial(ApprovalSubject, screen: ApprovalScreen)
        /// "This wasn't me": `POST /v1/me/freeze` (it ends every pending approval too).
        case freezeAccount(screen: ApprovalScreen)
        /// Done: show the end and stop (cancel the expiry timer and any work).
        case finish(ApprovalEnd, screen: ApprovalScreen)
        case none
    }

    private enum State: Sendable {
        /// Not started.
        case initial
        /// Fetching what asks.
        case loading
        /// Showing who asks and the numbers; waiting for the user.
        case choosing(ApprovalDetails)
        /// The verification page runs for the picked number.
        case verifying(ApprovalDetails, number: String)
        /// The approval is on its way (sign-in only: a pushed verification is approved by the page's attempt).
        case deciding(ApprovalDetails)
        /// The denial is on its way.
        case denying(ApprovalDetails)
        /// The freeze is on its way.
        case freezing(ApprovalDetails)
        /// Over.
        case finished(ApprovalEnd)
    }

    public let subject: ApprovalSubject
    public let strings: ApprovalStrings
    private let timeZone: TimeZone
    private var state: State = .initial

    public init(subject: ApprovalSubject, language: LatchLanguage, timeZone: TimeZone = .current) {
        self.subject = subject
        self.strings = ApprovalStrings(language)
        self.timeZone = timeZone
    }

    /// How it ended, once it did.
    public var end: ApprovalEnd? {
        guard case .finished(let end) = state else { return nil }
        return end
    }

    // MARK: Events

    /// The screen opens.
    public mutating func start() -> Action {
        guard case .initial = state else { preconditionFailure("an ApprovalFlow starts once") }
        state = .loading
        return .load(subject, screen: ApprovalScreen(kind: .loading, title: title, message: strings.loading))
    }

    /// What asks arrived.
    public mutating func loaded(_ details: ApprovalDetails) -> Action {
        guard case .loading = state else {
            // Closed or expired while loading.
            return .none
        }
        guard details.isOpen else { return finish(.expired) }
        state = .choosing(details)
        return .show(choosingScreen(details))
    }

    /// Loading failed.
    public mutating func loadFailed(_ failure: ApprovalCallFailure) -> Action {
        guard case .loading = state else { return .none }
        return finish(Self.end(of: failure))
    }

    /// The user picked `number` among the three.
    public mutating func userPickedNumber(_ number: String) -> Action {
        guard case .choosing(let details) = state else {
            // A tap that arrived after the screen moved on.
            return .none
        }
        guard details.numbers.contains(number) else { return .show(choosingScreen(details)) }
        state = .verifying(details, number: number)
        let busy = ApprovalScreen(kind: .busy, title: title, message: strings.sending)
        switch (subject, details) {
        case (.signIn(let link), _):
            let context = LatchClient.approveSignInContext(
                approvalID: link.approvalID, localizedReason: strings.verifySignInReason)
            return .verifySignIn(context, number: number, screen: busy)
        case (.verification, .verification(let verification)):
            return .verifyOnPhone(verification, number: number, screen: busy)
        case (.verification, .signIn):
            preconditionFailure("a verification subject loads a verification's details")
        }
    }

    /// The verification page finished.
    public mutating func verificationFinished(_ outcome: ApprovalVerificationOutcome) -> Action {
        guard case .verifying(let details, let number) = state else {
            // Expired or closed while the page ran; the driver closed the page.
            return .none
        }
        switch outcome {
        case .passed(let token?):
            guard case .signIn(let link) = subject else { return finish(.approved) }
            state = .deciding(details)
            return .sendApproval(
                link, number: number, verificationToken: token,
                screen: ApprovalScreen(kind: .busy, title: title, message: strings.sending))
        case .passed(nil):
            guard case .verification = subject else {
                preconditionFailure("the sign-in's verification page answers a token")
            }
            return finish(.approved)
        case .wrongNumber:
            return finish(.wrongNumber)
        case .cancelled:
            // Back to the numbers: the user may still pick, deny or freeze until it expires.
            state = .choosing(details)
            return .show(choosingScreen(details))
        case .failed:
            return finish(.failed(message: strings.verificationFailed))
        }
    }

    /// The sign-in's approval was accepted.
    public mutating func decisionSent() -> Action {
        guard case .deciding = state else { return .none }
        return finish(.approved)
    }

    /// The sign-in's approval was refused.
    public mutating func decisionFailed(_ failure: ApprovalCallFailure) -> Action {
        guard case .deciding = state else { return .none }
        return finish(Self.end(of: failure))
    }

    /// "拒绝" / "Deny".
    public mutating func userTappedDeny() -> Action {
        guard case .choosing(let details) = state else { return .none }
        state = .denying(details)
        return .sendDenial(subject, screen: ApprovalScreen(kind: .busy, title: title, message: strings.sending))
    }

    /// The denial was accepted.
    public mutating func denialSent() -> Action {
        guard case .denying = state else { return .none }
        return finish(.denied)
    }

    /// The denial failed: gone means it is over anyway.
    public mutating func denialFailed(_ failure: ApprovalCallFailure) -> Action {
        guard case .denying = state else { return .none }
        return finish(Self.end(of: failure))
    }

    /// "这不是我本人操作" / "This wasn't me": freeze the account (no verification, as issue 19 §3).
    public mutating func userTappedNotMe() -> Action {
        guard case .choosing(let details) = state else { return .none }
        state = .freezing(details)
        return .freezeAccount(screen: ApprovalScreen(kind: .busy, title: title, message: strings.sending))
    }

    /// The account is frozen.
    public mutating func accountFrozen() -> Action {
        guard case .freezing = state else { return .none }
        return finish(.frozen)
    }

    /// The freeze failed: back to the numbers with the reason, so the user can try again.
    public mutating func freezeFailed(_ failure: ApprovalCallFailure) -> Action {
        guard case .freezing(let details) = state else { return .none }
        state = .choosing(details)
        var screen = choosingScreen(details)
        if case .other(let message) = failure { screen.message = message }
        screen.isWarning = true
        return .show(screen)
    }

    /// The user closed the screen without deciding.
    public mutating func userTappedClose() -> Action {
        switch state {
        case .initial, .loading, .choosing, .verifying:
            return finish(.closed)
        case .deciding, .denying, .freezing:
            // The call decides how it ends.
            return .none
        case .finished:
            return .none
        }
    }

    /// The request's `expires_at` passed.
    public mutating func expired() -> Action {
        switch state {
        case .initial, .loading, .choosing, .verifying:
            return finish(.expired)
        case .deciding, .denying, .freezing:
            // The answer on its way says how it ended.
            return .none
        case .finished:
            return .none
        }
    }

    // MARK: Screens

    private var title: String {
        switch subject {
        case .signIn: strings.signInTitle
        case .verification: strings.actionTitle
        }
    }

    private mutating func finish(_ end: ApprovalEnd) -> Action {
        state = .finished(end)
        let message: String
        switch end {
        case .approved:
            if case .signIn = subject { message = strings.approvedSignIn } else { message = strings.approvedAction }
        case .denied: message = strings.denied
        case .frozen: message = strings.frozen
        case .expired: message = strings.expired
        case .wrongNumber: message = strings.wrongNumber
        case .closed: message = ""
        case .failed(let text): message = text
        }
        let warning = end == .wrongNumber || end == .expired || end == .frozen
        return .finish(
            end,
            screen: ApprovalScreen(
                kind: .finished(end), title: title, message: message, buttons: [.close], isWarning: warning))
    }

    private func choosingScreen(_ details: ApprovalDetails) -> ApprovalScreen {
        var lines: [String] = []
        let message: String
        var warning = false
        switch details {
        case .signIn(let signIn):
            message = strings.signInQuestion(client: signIn.clientName, platform: signIn.clientPlatform)
            if let device = signIn.deviceName { lines.append(strings.device(device)) }
            if let ip = signIn.ip { lines.append(strings.address(ip)) }
            lines.append(strings.time(format(signIn.createdAt)))
            lines.append(strings.network(same: signIn.sameNetwork))
            warning = !signIn.sameNetwork
        case .verification(let verification):
            message = strings.actionQuestion(verification.action)
            // The server's amount, unit and target; else the action's own parameters of those meanings.
            let parameters = verification.parameters
            if let amount = verification.amount ?? parameters["amount"] {
                let unit = verification.unit ?? parameters["unit"] ?? parameters["currency"]
                lines.append(strings.amount(amount, unit: unit))
            }
            if let target = verification.target ?? parameters["address"] { lines.append(strings.target(target)) }
        }
        return ApprovalScreen(
            kind: .choosing, title: title, message: message, details: lines, numbers: details.numbers,
            instruction: strings.pickNumber, buttons: details.numbers.map { .number($0) } + [.deny, .notMe],
            isWarning: warning)
    }

    private func format(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = timeZone
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
        return formatter.string(from: date)
    }

    private static func end(of failure: ApprovalCallFailure) -> ApprovalEnd {
        switch failure {
        case .gone: .expired
        case .wrongNumber: .wrongNumber
        case .other(let message): .failed(message: message)
        }
    }
}
