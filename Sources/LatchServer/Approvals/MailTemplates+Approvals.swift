import LatchCore

extension MailTemplates {
    /// Issue 43 §1: the phone picked a number the web page did not show, so the approval ended. A page
    /// that showed another number is what a relayed (phished) code looks like.
    static func approvalWrongNumber(client: String?, language: LatchLanguage) -> Mail {
        let asker = client ?? ""
        return switch language {
        case .zhHans:
            Mail(
                subject: "安全提醒：扫码登录因数字不符已终止",
                blocks: [
                    .text("你的手机在批准一次扫码登录（\(asker)）时选择了与网页不一致的数字，这次登录已被终止，没有任何设备因此登录。"),
                    .text("如果网页上显示的数字不同，可能有人转发了别人的二维码。如果不是你本人操作，请立即冻结账号。")
                ],
                language: language)
        case .en:
            Mail(
                subject: "Security notice: a QR sign-in ended on a wrong number",
                blocks: [
                    .text(
                        "Your phone picked a number the web page did not show while approving a QR sign-in (\(asker)). The sign-in was ended; nothing signed in."
                    ),
                    .text(
                        "A page showing another number may have relayed someone else's code. If this was not you, freeze your account now."
                    )
                ],
                language: language)
        }
    }
}
