/// The highest cost an imported hash may have (issue 45 §2), checked at import so that one sign-in against
/// an imported hash stays within about a second of one core and a bounded amount of memory. docs/IMPORT.md
/// lists the same numbers.
struct ImportedHashCaps: Sendable, Equatable {
    /// bcrypt's cost (log2 of its rounds).
    var bcryptCost = 13
    /// argon2's memory in KiB (64 MiB).
    var argon2MemoryKiB = 65_536
    /// argon2's passes over the memory.
    var argon2Iterations = 10
    /// argon2's lanes.
    var argon2Parallelism = 8
    /// argon2's memory × passes (KiB), the work of one check: 64 MiB four times.
    var argon2Work = 262_144
    /// scrypt's N (and Firebase's 2^mem_cost).
    var scryptN = 131_072
    /// scrypt's r (and Firebase's rounds).
    var scryptR = 16
    /// scrypt's p.
    var scryptP = 4
    /// scrypt's memory, 128 · N · r bytes (128 MiB).
    var scryptMemoryBytes = 134_217_728
    /// PBKDF2-SHA256's iterations (Django 5.2 makes 1,000,000).
    var pbkdf2SHA256Iterations = 2_000_000
    /// PBKDF2-SHA512's iterations.
    var pbkdf2SHA512Iterations = 1_000_000

    /// The caps latchd uses.
    static let standard = ImportedHashCaps()
}
