import LatchCore

/// The text of a sign-in code SMS, in the request's language.
enum SMSCodeText {
    static func signInCode(_ code: String, language: LatchLanguage) -> String {
        switch language {
        case .zhHans: "【Latch】您的登录验证码是 \(code)，5 分钟内有效。请勿告诉他人。"
        case .en: "Latch: your sign-in code is \(code). It expires in 5 minutes. Do not share it."
        }
    }
}
