import Foundation
import LatchCore

extension MailTemplates {
    /// The code of a verification's `email_code` factor (issue 30 §2): it names the action and, when
    /// there are any, the amount with its unit and the address, so the owner sees what the code approves.
    /// The address is the app's free text: it is shown only when it looks like one (`shownAddress`),
    /// marked as entered in the app, so a genuine mail never carries a sentence a phisher wrote.
    static func verificationCode(
        _ code: String, action: String, amount: String?, unit: String?, target: String?, language: LatchLanguage
    ) -> Mail {
        let amountLine = amount.map { "\($0) \(unit ?? "")".trimmingCharacters(in: .whitespaces) }
        let target = shownAddress(target)
        switch language {
        case .zhHans:
            var blocks: [MailHTML.Block] = [.text("你正在验证操作“\(action)”，验证码如下，5 分钟内有效：")]
            if let amountLine { blocks.append(.text("金额：\(amountLine)")) }
            if let target { blocks.append(.text("地址（在应用中填写）：\(target)")) }
            blocks += [.code(code), .text("如果不是你本人操作，请勿把验证码告诉任何人，并立即冻结账号。")]
            return Mail(subject: "Latch 操作验证码：\(code)", blocks: blocks, language: language)
        case .en:
            var blocks: [MailHTML.Block] = [.text("You are verifying \"\(action)\". Your code, valid for 5 minutes:")]
            if let amountLine { blocks.append(.text("Amount: \(amountLine)")) }
            if let target { blocks.append(.text("Address (as entered in the app): \(target)")) }
            blocks += [.code(code), .text("If this was not you, tell no one this code and freeze your account now.")]
            return Mail(subject: "Your Latch verification code: \(code)", blocks: blocks, language: language)
        }
    }

    /// The notice of a new value time-locked by the verification policy (issue 30 §1): the value, the
    /// action and when it may be used; the freeze link is added by `sendSecurityNotice`.
    static func newValueLocked(_ value: String, action: String, until: Double?, language: LatchLanguage) -> Mail {
        let time = until.map { ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: $0)) } ?? ""
        // The value is the app's free text, shown only when it looks like an address (issue 41).
        let shown = shownAddress(value)
        switch language {
        case .zhHans:
            return Mail(
                subject: "你的 Latch 账号添加了新的地址",
                blocks: [
                    .text("你的账号刚刚首次对以下地址发起“\(action)”："), .boxed(shown ?? "（不像地址，未显示，请在应用中查看）"),
                    .text("为保障资金安全，该地址在 \(time) 之前不能使用。如果不是你本人操作，请立即冻结账号。")
                ],
                language: language)
        case .en:
            return Mail(
                subject: "A new address was used on your Latch account",
                blocks: [
                    .text("Your account just asked for \"\(action)\" to this address for the first time:"),
                    .boxed(shown ?? "(not shown: it does not look like an address; see it in the app)"),
                    .text(
                        "For your security, it cannot be used before \(time). If this was not you, freeze your account now."
                    )
                ],
                language: language)
        }
    }

    /// `text` when it looks like an address (issue 41): 8–128 ASCII letters and digits, optionally with
    /// `:`, `_` or `-` (a chain's prefix such as `bitcoincash:`), as blockchain addresses and account
    /// numbers are. Anything else (spaces, links, other scripts) is not printed in a mail at all.
    static func shownAddress(_ text: String?) -> String? {
        guard let text, (8...128).contains(text.utf8.count),
            text.utf8.allSatisfy({ byte in
                switch byte {
                case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: ":"), UInt8(ascii: "_"), UInt8(ascii: "-"):
                    true
                default: false
                }
            })
        else { return nil }
        return text
    }
}
