import ArgumentParser
import Foundation
import LatchClient
import LatchCore

/// `latch account delete`: deletes the signed-in account for good, after a confirmation (unless
/// `--yes`). More than 10 minutes after signing in the server asks for a verification first: the
/// verification page runs (action `delete_account`), then the deletion is sent again with its proof.
struct AccountDeleteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete the account and its data for good (asks to confirm, and to verify when needed).")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var simulation: SensorOptions
    @OptionGroup var secrets: SecretOptions

    @Flag(help: "Do not ask for confirmation.")
    var yes = false

    func run() async throws {
        let context = CLIContext(global)
        let text = AccountText(language: context.language)
        let user = try await context.requireSession()
        if !yes {
            let name = user.email ?? user.identities?.first?.identifier ?? user.id
            let answer = await context.terminal.ask(text.confirmQuestion(name))?.trimmingCharacters(in: .whitespaces)
                .lowercased()
            guard let answer, ["yes", "是", "确认"].contains(answer) else { throw CLIFailure.cancelled(text.notDeleted) }
        }
        let apple = try await context.callVerifyingWhenAsked(
            action: LatchClient.deleteAccountAction, simulation: simulation, secrets: secrets
        ) { proof in try await context.client.deleteAccount(verification: proof) }
        context.terminal.line(context.terminal.paint(text.deleted, .green))
        if let guidance = apple.guidance(in: context.language) {
            context.terminal.line(guidance)
        }
    }
}

/// The sentences of `latch account`, in zh-Hans and English.
struct AccountText {
    let language: LatchLanguage

    func confirmQuestion(_ name: String) -> String {
        language.pick(
            "将永久注销账号 \(name) 并删除其全部数据，无法恢复。输入“是”确认 > ",
            "This deletes the account \(name) and all its data for good; it cannot be undone. Type yes to confirm > ")
    }
    var notDeleted: String { language.pick("已取消，账号未注销", "Cancelled; the account was not deleted.") }
    var deleted: String { language.pick("账号已注销，所有设备均已退出登录", "The account was deleted and every device signed out.") }
}
