import Crypto
import _CryptoExtras

/// A scrypt hash in passlib's PHC-like form (issue 45 §2): `$scrypt$ln=<log2 N>,r=<r>,p=<p>$<salt>$<hash>`,
/// salt and hash in unpadded standard base64 as passlib writes them (passlib's adapted `.` for `+` is read too).
struct ScryptHash: Sendable, Equatable {
    /// log2 of N, the CPU and memory cost.
    var logN: Int
    /// The block size.
    var r: Int
    /// The parallelism.
    var p: Int
    var salt: [UInt8]
    var hash: [UInt8]

    /// The prefix that marks the format.
    static let prefix = "$scrypt$"
    /// The lengths of derived hash read: passlib makes 32 bytes.
    static let hashLengths = 16...128
    /// The longest salt read.
    static let maxSaltLength = 1024

    /// Reads `$scrypt$ln=…,r=…,p=…$salt$hash`.
    init(phc text: String) throws(ImportedHashRefusal) {
        guard text.hasPrefix(Self.prefix) else { throw .unknownFormat }
        let fields = text.dropFirst(Self.prefix.count).split(separator: "$", omittingEmptySubsequences: false)
        guard fields.count == 3 else { throw .malformed("scrypt's form is $scrypt$ln=…,r=…,p=…$salt$hash") }
        var parameters: [Substring: Int] = [:]
        for pair in fields[0].split(separator: ",", omittingEmptySubsequences: false) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, ["ln", "r", "p"].contains(parts[0]), parameters[parts[0]] == nil else {
                throw .malformed("scrypt's parameters are ln, r and p, once each")
            }
            guard let value = HashNumber.parse(parts[1]) else {
                throw .malformed("scrypt's \(parts[0]) is not a number")
            }
            parameters[parts[0]] = value
        }
        guard let logN = parameters["ln"], let r = parameters["r"], let p = parameters["p"] else {
            throw .malformed("scrypt's parameters are ln, r and p, once each")
        }
        guard let salt = HashBase64.decode(fields[1]), let hash = HashBase64.decode(fields[2]) else {
            throw .malformed("scrypt's salt or hash is not base64")
        }
        try self.init(logN: logN, r: r, p: p, salt: salt, hash: hash)
    }

    /// A hash from its parts, checked as scrypt (and BoringSSL) require them.
    init(logN: Int, r: Int, p: Int, salt: [UInt8], hash: [UInt8]) throws(ImportedHashRefusal) {
        guard (1...62).contains(logN) else { throw .malformed("scrypt's ln is not from 1 to 62") }
        guard r >= 1, p >= 1, p <= ((1 << 30) - 1) / r else { throw .malformed("scrypt's r or p is out of range") }
        // scrypt requires N < 2^(128·r/8), which binds only for r of 1, 2 and 3.
        guard 16 * r > 62 || logN < 16 * r else { throw .malformed("scrypt's N is too large for its r") }
        guard Self.hashLengths.contains(hash.count) else { throw .malformed("scrypt's hash is not 16 to 128 bytes") }
        guard salt.count <= Self.maxSaltLength else { throw .malformed("scrypt's salt is over 1,024 bytes") }
        (self.logN, self.r, self.p, self.salt, self.hash) = (logN, r, p, salt, hash)
    }

    /// The text stored and exported: passlib's form.
    var phc: String {
        "\(Self.prefix)ln=\(logN),r=\(r),p=\(p)$\(HashBase64.unpadded(salt))$\(HashBase64.unpadded(hash))"
    }

    /// N, the CPU and memory cost.
    var n: Int { 1 << logN }

    /// Refuses N, r, p or the memory (128 · N · r bytes) over its cap.
    func check(_ caps: ImportedHashCaps) throws(ImportedHashRefusal) {
        try Self.check(logN: logN, r: r, caps: caps, nName: "scrypt N", rName: "scrypt r")
        guard p <= caps.scryptP else { throw .overCap(parameter: "scrypt p", value: p, cap: caps.scryptP) }
    }

    /// The checks of N, r and memory that Firebase's scrypt shares.
    static func check(
        logN: Int, r: Int, caps: ImportedHashCaps, nName: String, rName: String
    ) throws(ImportedHashRefusal) {
        // logN is at most 62 (the initializers check it), so N fits.
        guard 1 << logN <= caps.scryptN else { throw .overCap(parameter: nName, value: 1 << logN, cap: caps.scryptN) }
        guard r <= caps.scryptR else { throw .overCap(parameter: rName, value: r, cap: caps.scryptR) }
        let memory = memoryBytes(n: 1 << logN, r: r) ?? Int.max
        guard memory <= caps.scryptMemoryBytes else {
            throw .overCap(parameter: "scrypt memory (bytes)", value: memory, cap: caps.scryptMemoryBytes)
        }
    }

    /// 128 · N · r, scrypt's memory, or nil when it does not fit in an `Int`.
    static func memoryBytes(n: Int, r: Int) -> Int? {
        let (blockBytes, overflow) = 128.multipliedReportingOverflow(by: r)
        let (memory, overflow2) = blockBytes.multipliedReportingOverflow(by: n)
        return overflow || overflow2 ? nil : memory
    }

    /// Whether `password` derives `hash`; false, never a trap, when scrypt cannot run with these parameters.
    func verify(_ password: String) -> Bool {
        guard let derived = Self.derive(password, salt: salt, logN: logN, r: r, p: p, count: hash.count) else {
            return false
        }
        return DerivedBytes.equal(derived, hash)
    }

    /// scrypt's output, or nil when its parameters cannot run (out of range or out of memory).
    static func derive(_ password: String, salt: [UInt8], logN: Int, r: Int, p: Int, count: Int) -> [UInt8]? {
        // BoringSSL needs 128 · r · (N + p + 1) bytes: the N blocks of V, one for T and p for B.
        guard logN < 62, let base = memoryBytes(n: 1, r: r),
            case let (blocks, false) = (1 << logN).addingReportingOverflow(p + 1),
            case let (maxMemory, false) = base.multipliedReportingOverflow(by: blocks)
        else { return nil }
        guard
            let key = try? KDF.Scrypt.deriveKey(
                from: Array(password.utf8), salt: salt, outputByteCount: count, rounds: 1 << logN, blockSize: r,
                parallelism: p, maxMemory: maxMemory)
        else { return nil }
        return key.withUnsafeBytes { Array($0) }
    }
}
