import ArgumentParser

/// The fallback secrets of a verification, for scripts.
struct SecretOptions: ParsableArguments {
    @Option(help: ArgumentHelp("A 2FA code (or recovery code) for the verification page.", valueName: "code"))
    var code: String?

    @Flag(help: "Read the fund password for the verification page from the first line of standard input.")
    var fundPasswordStdin = false
}
