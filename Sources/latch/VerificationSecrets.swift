/// The secrets given on the command line for the fallback pages (`--code`, `--fund-password-stdin`).
/// Each is used once: when the server refuses it, the page asks the person instead.
actor VerificationSecrets {
    private var code: String?
    private var fundPassword: String?

    init(code: String?, fundPassword: String?) {
        self.code = code
        self.fundPassword = fundPassword
    }

    var hasCode: Bool { code != nil }
    var hasFundPassword: Bool { fundPassword != nil }

    func takeCode() -> String? {
        defer { code = nil }
        return code
    }

    func takeFundPassword() -> String? {
        defer { fundPassword = nil }
        return fundPassword
    }
}
