import ArgumentParser

/// The fallback secrets of a verification, for scripts.
struct SecretOptions: ParsableArguments {
    @Option(help: ArgumentHelp("A 2FA code (or recovery code) for the verification page.", valueName: "code"))
    var code: String?

    @Flag(help: "Read the fund password for the verification page from the first line of standard input.")
    var fundPasswordStdin = false

    /// The fund password from standard input, when `--fund-password-stdin` asks for it.
    func fundPassword() async -> String? {
        fundPasswordStdin ? await StandardInput.shared.readLine(secret: false) : nil
    }
}
