import Foundation
import LatchClient
import LatchCore

/// `latch login --with-phone`: the web's side of a QR sign-in (issue 43 §1). Asks for an approval (with this
/// home's DPoP key, so the session is bound to it), prints the code's URL and the number on lines of their
/// own, then polls as RFC 8628 says until the phone approves, and keeps the session like `latch login`:
///
///     qr_url: http://127.0.0.1:8080/approve/6f1c…#s=Qm9…
///     number: 42
///     expires_in: 120
struct PhoneLogin {
    let context: CLIContext

    func run() async throws {
        let terminal = context.terminal
        let language = context.language
        let started = try await context.call(context.text.connecting) {
            let device = try await context.client.deviceInfo()
            return try await context.client.startSignInApproval(
                client: .init(name: "latch CLI", platform: device.platform))
        }
        terminal.line("qr_url: \(started.qrUrl)")
        terminal.line("number: \(started.number)")
        terminal.line("expires_in: \(started.expiresIn)")
        if terminal.usesColor { QRCode.print(started.qrUrl) }
        terminal.line(
            language.pick(
                "请用已登录的手机扫描二维码（latch approve URL），并选择数字 \(started.number)",
                "Scan the code with your signed-in phone (latch approve URL) and pick \(started.number) there."))
        let waiting = language.pick("正在等待手机批准…", "Waiting for the phone…")
        do {
            let user = try await Progress(terminal: terminal).run(waiting) {
                try await context.client.waitForSignInApproval(started)
            }
            terminal.line(terminal.paint(context.text.signedIn(user), .green))
        } catch let end as ApprovalPollEnd {
            terminal.line("state: \(end.rawValue)")
            throw CLIFailure.failed(Self.message(for: end, language: language))
        } catch {
            throw context.failure(for: error)
        }
    }

    /// The line for a wait that ended without approval.
    static func message(for end: ApprovalPollEnd, language: LatchLanguage) -> String {
        switch end {
        case .denied: language.pick("手机拒绝了此请求", "The phone denied it.")
        case .ended: language.pick("请求已终止（数字不匹配）", "The request was ended (the number did not match).")
        case .expired: language.pick("请求已过期", "The request expired.")
        }
    }
}

/// `latch verify ACTION … --approve-on device`: the initiator's side of a push approval (issue 43 §2). Starts
/// the verification for the user's phone, prints its id and the number on lines of their own, waits for the
/// phone, and answers the token:
///
///     verification_id: 0b4e…
///     number: 42
struct PhoneApprovedVerification {
    let context: CLIContext

    func verify(_ action: String, parameters: [String: String]) async throws -> VerificationProof {
        let terminal = context.terminal
        let language = context.language
        let verification = VerificationContext(action: action, parameters: parameters)
        let started = try await context.call(context.text.connecting) {
            try await context.client.startPhoneApprovedVerification(verification)
        }
        terminal.line("verification_id: \(started.verification.verificationId)")
        terminal.line("number: \(started.number)")
        terminal.line(
            language.pick(
                "请在手机上批准（latch approvals），并选择数字 \(started.number)",
                "Approve it on your phone (latch approvals) and pick \(started.number) there."))
        let waiting = language.pick("正在等待手机批准…", "Waiting for the phone…")
        do {
            let passed = try await Progress(terminal: terminal).run(waiting) {
                try await context.client.waitForPhoneApproval(started)
            }
            return VerificationProof(
                token: passed.verificationToken, expiresIn: passed.expiresIn, context: verification, method: .biometric)
        } catch let end as ApprovalPollEnd {
            terminal.line("state: \(end.rawValue)")
            throw CLIFailure.failed(PhoneLogin.message(for: end, language: language))
        } catch {
            throw context.failure(for: error)
        }
    }
}
