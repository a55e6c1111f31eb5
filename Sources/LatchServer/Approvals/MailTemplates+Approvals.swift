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

extension MailTemplates {
    /// Issue 43 §1: a web or desktop client signed in because the owner's phone approved it; names the
    /// client, its address and the phone that approved (the freeze link is added by `mailNotice`).
    static func phoneApprovedSignIn(
        client: String?, platform: String?, ip: String?, phone: String?, language: LatchLanguage
    ) -> Mail {
        let unknown = language == .zhHans ? "未知设备" : "an unknown device"
        let asker = [MailDisplayText.cleaned(client), MailDisplayText.cleaned(platform)].compactMap { $0 }
            .joined(separator: " · ")
        let name = asker.isEmpty ? unknown : asker
        let address = MailDisplayText.cleaned(ip) ?? "?"
        let approver = MailDisplayText.cleaned(phone) ?? (language == .zhHans ? "你的手机" : "your phone")
        return switch language {
        case .zhHans:
            Mail(
                subject: "你的 Latch 账号通过手机扫码在新设备上登录",
                blocks: [
                    .text("“\(approver)”刚刚批准了“\(name)”（IP \(address)）的扫码登录。"),
                    .text("如果不是你本人操作，请立即冻结账号。")
                ],
                language: language)
        case .en:
            Mail(
                subject: "New sign-in to your Latch account, approved on your phone",
                blocks: [
                    .text("\(approver) just approved a QR sign-in on \(name) (IP \(address))."),
                    .text("If this was not you, freeze your account now.")
                ],
                language: language)
        }
    }
}

extension MailTemplates {
    /// Issue 43 §2: the phone denied an action someone asked it to approve (push bombing, or a session
    /// the owner does not know). Names the kind of action only.
    static func pushApprovalDenied(action: String, language: LatchLanguage) -> Mail {
        let name = MailDisplayText.cleaned(action) ?? action
        return switch language {
        case .zhHans:
            Mail(
                subject: "安全提醒：你在手机上拒绝了一项操作",
                blocks: [
                    .text("你的手机刚刚拒绝了一项待批准的操作（\(name)），该操作不会执行。"),
                    .text("如果这不是你发起的，可能有人已登录你的账号。请立即冻结账号。")
                ],
                language: language)
        case .en:
            Mail(
                subject: "Security notice: you denied an action on your phone",
                blocks: [
                    .text(
                        "Your phone just denied an action waiting for its approval (\(name)). It will not be carried out."
                    ),
                    .text("If you did not start it, someone may be signed in to your account. Freeze your account now.")
                ],
                language: language)
        }
    }
}

extension MailTemplates {
    /// Issue 43 §2: the phone picked a number the asking screen did not show, so the approval ended.
    static func pushApprovalWrongNumber(action: String, language: LatchLanguage) -> Mail {
        let name = MailDisplayText.cleaned(action) ?? action
        return switch language {
        case .zhHans:
            Mail(
                subject: "安全提醒：手机批准因数字不符已终止",
                blocks: [
                    .text("你的手机在批准一项操作（\(name)）时选择了与发起页面不一致的数字，该操作已被终止，不会执行。"),
                    .text("如果这不是你发起的，可能有人已登录你的账号。请立即冻结账号。")
                ],
                language: language)
        case .en:
            Mail(
                subject: "Security notice: an approval on your phone ended on a wrong number",
                blocks: [
                    .text(
                        "Your phone picked a number the asking screen did not show while approving an action (\(name)). It was ended and will not be carried out."
                    ),
                    .text("If you did not start it, someone may be signed in to your account. Freeze your account now.")
                ],
                language: language)
        }
    }
}
