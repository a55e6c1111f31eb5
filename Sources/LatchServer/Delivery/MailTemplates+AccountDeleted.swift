import Foundation
import LatchCore

extension MailTemplates {
    /// The last mail of a deleted account (issue 12 §1), sent to the address it had.
    static func accountDeleted(language: LatchLanguage) -> Mail {
        switch language {
        case .zhHans:
            Mail(
                subject: "你的 Latch 账号已注销",
                blocks: [
                    .text("你的 Latch 账号及其个人数据已被删除，所有设备均已退出登录。此邮箱地址可以重新注册。"),
                    .text("如果不是你本人操作，请联系应用的客服（回复此邮件无人处理）。")
                ],
                language: language)
        case .en:
            Mail(
                subject: "Your Latch account was deleted",
                blocks: [
                    .text(
                        "Your Latch account and its personal data were deleted, and every device was signed out. This address can be used to sign up again."
                    ),
                    .text("If this was not you, contact the app's support (replies to this mail are not read).")
                ],
                language: language)
        }
    }
}
