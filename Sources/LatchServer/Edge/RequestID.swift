import Foundation

/// New request ids: random version-4 UUIDs (`8F3C…-4…`) from `RandomSecrets.uuid()`, two `getrandom` system
/// calls (it drew each of the 16 bytes with a call of its own before, 3 % of a refresh's CPU, issue 44 §4).
/// Foundation's `UUID()` reads `/dev/urandom` instead, and when no file descriptor is left it returns all zeros
/// without a word (`00000000-0000-4000-8000-000000000000`, what a flood of connections made of every request id,
/// issue 41 §3 E-X1): this needs no descriptor.
enum RequestID {
    static func make() -> String { UUIDText.uppercase(RandomSecrets.uuid()) }
}
