import Foundation

/// An imported argon2 hash in the PHC string format (issue 45 §2), as argon2-cffi, libsodium, PHP and the
/// reference implementation write it:
///
/// ```
/// $argon2id$v=19$m=65536,t=3,p=4$<salt>$<hash>
/// ```
///
/// The salt and hash are standard base64 without padding (padding is tolerated). A string without `v=` is
/// version 0x10, as the reference implementation reads it.
///
/// ```swift
/// let stored = try Argon2Hash(phc: line.passwordHash)
/// try stored.check(.standard)
/// if stored.verify(password) { … }
/// ```
struct Argon2Hash: Sendable, Equatable {
    /// argon2d, argon2i or argon2id.
    let variant: Argon2.Variant
    /// 0x10 or 0x13.
    let version: Int
    /// m, the memory in KiB.
    let memoryKiB: Int
    /// t, the passes over the memory.
    let iterations: Int
    /// p, the lanes.
    let parallelism: Int
    /// The salt's bytes.
    let salt: [UInt8]
    /// The tag's bytes; its length is the output length to recompute.
    let hash: [UInt8]

    /// Parses a PHC string, refusing anything argon2 cannot take or latchd cannot verify.
    init(phc: String) throws(ImportedHashRefusal) {
        let fields = phc.split(separator: "$", omittingEmptySubsequences: false)
        guard fields.count >= 2, fields[0].isEmpty, let variant = Argon2.Variant(rawValue: String(fields[1])) else {
            throw .unknownFormat
        }
        var rest = fields.dropFirst(2)
        var version = 0x10
        if let field = rest.first, field.hasPrefix("v=") {
            let value = try Self.decimal(field.dropFirst(2), name: "v")
            guard value == 0x10 || value == 0x13 else {
                throw .malformed("argon2 version \(value) is neither 16 nor 19")
            }
            version = value
            rest = rest.dropFirst()
        }
        guard rest.count == 3 else {
            throw .malformed("an argon2 hash has the fields $parameters$salt$hash after its version")
        }
        let parameters = try Self.parameters(rest[rest.startIndex])
        let salt = try Self.base64(rest[rest.startIndex + 1], name: "salt")
        let hash = try Self.base64(rest[rest.startIndex + 2], name: "hash")
        try self.init(
            variant: variant, version: version, memoryKiB: parameters.m, iterations: parameters.t,
            parallelism: parameters.p, salt: salt, hash: hash)
    }

    /// Checks the ranges RFC 9106 and the reference implementation allow.
    private init(
        variant: Argon2.Variant, version: Int, memoryKiB: Int, iterations: Int, parallelism: Int, salt: [UInt8],
        hash: [UInt8]
    ) throws(ImportedHashRefusal) {
        guard (1...0xFF_FFFF).contains(parallelism) else {
            throw .malformed("argon2's p is \(parallelism), outside 1 to 16777215")
        }
        guard iterations >= 1 else {
            throw .malformed("argon2's t is 0")
        }
        guard memoryKiB >= 8 * parallelism else {
            throw .malformed("argon2's m is \(memoryKiB) KiB, under 8 KiB per lane")
        }
        guard salt.count >= 8 else {
            throw .malformed("argon2's salt has \(salt.count) bytes, under 8")
        }
        guard (4...1024).contains(hash.count) else {
            throw .malformed("argon2's hash has \(hash.count) bytes, outside 4 to 1024")
        }
        self.variant = variant
        self.version = version
        self.memoryKiB = memoryKiB
        self.iterations = iterations
        self.parallelism = parallelism
        self.salt = salt
        self.hash = hash
    }

    /// Refuses a hash whose memory, passes, lanes or work (memory × passes) is over `caps`.
    func check(_ caps: ImportedHashCaps) throws(ImportedHashRefusal) {
        if memoryKiB > caps.argon2MemoryKiB {
            throw .overCap(parameter: "m", value: memoryKiB, cap: caps.argon2MemoryKiB)
        }
        if iterations > caps.argon2Iterations {
            throw .overCap(parameter: "t", value: iterations, cap: caps.argon2Iterations)
        }
        if parallelism > caps.argon2Parallelism {
            throw .overCap(parameter: "p", value: parallelism, cap: caps.argon2Parallelism)
        }
        let (product, overflow) = memoryKiB.multipliedReportingOverflow(by: iterations)
        let work = overflow ? Int.max : product
        if work > caps.argon2Work {
            throw .overCap(parameter: "m*t", value: work, cap: caps.argon2Work)
        }
    }

    /// Whether `password` (its UTF-8 bytes) gives this hash. The tags are compared in constant time.
    ///
    /// The work is the hash's own cost: `check(_:)` it at import.
    func verify(_ password: String) -> Bool {
        let computed = Argon2.hash(
            password: Array(password.utf8), salt: salt, variant: variant, version: version, memoryKiB: memoryKiB,
            iterations: iterations, parallelism: parallelism, length: hash.count)
        var difference: UInt8 = 0
        for (ours, theirs) in zip(computed, hash) {
            difference |= ours ^ theirs
        }
        return difference == 0 && computed.count == hash.count
    }

    /// The canonical PHC string: always with `v=`, base64 without padding.
    var phc: String {
        "$\(variant.rawValue)$v=\(version)$m=\(memoryKiB),t=\(iterations),p=\(parallelism)"
            + "$\(Self.unpaddedBase64(salt))$\(Self.unpaddedBase64(hash))"
    }

    /// The m, t and p of `m=…,t=…,p=…`, each exactly once, in any order.
    private static func parameters(_ field: Substring) throws(ImportedHashRefusal) -> (m: Int, t: Int, p: Int) {
        var values: [String: Int] = [:]
        for pair in field.split(separator: ",", omittingEmptySubsequences: false) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2 else {
                throw .malformed("argon2's parameter \"\(pair.prefix(16))\" has no value")
            }
            let name = String(parts[0])
            guard ["m", "t", "p"].contains(name) else {
                throw .malformed("argon2 has no parameter \"\(name.prefix(16))\"")
            }
            guard values[name] == nil else {
                throw .malformed("argon2's \(name) is given twice")
            }
            values[name] = try decimal(parts[1], name: name)
        }
        guard let m = values["m"], let t = values["t"], let p = values["p"] else {
            throw .malformed("argon2 needs m, t and p")
        }
        return (m, t, p)
    }

    /// A decimal number of at most 2^32-1, without sign; bigger ones are refused, never overflow.
    private static func decimal(_ text: Substring, name: String) throws(ImportedHashRefusal) -> Int {
        guard !text.isEmpty else {
            throw .malformed("argon2's \(name) is empty")
        }
        var value = 0
        for character in text.utf8 {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(character) else {
                throw .malformed("argon2's \(name) is not a decimal number")
            }
            value = value * 10 + Int(character - UInt8(ascii: "0"))
            guard value <= UInt32.max else {
                throw .malformed("argon2's \(name) is over 4294967295")
            }
        }
        return value
    }

    /// The bytes of standard base64, with or without its padding.
    private static func base64(_ text: Substring, name: String) throws(ImportedHashRefusal) -> [UInt8] {
        var unpadded = text
        while unpadded.hasSuffix("=") {
            unpadded = unpadded.dropLast()
        }
        let paddingLength = text.count - unpadded.count
        let remainder = unpadded.utf8.count % 4
        // The length decides the padding; given padding must be exactly that.
        guard remainder != 1, paddingLength == 0 || paddingLength == (4 - remainder) % 4 else {
            throw .malformed("argon2's \(name) is not base64")
        }
        let padded = String(unpadded) + String(repeating: "=", count: (4 - remainder) % 4)
        guard let data = Data(base64Encoded: padded) else {
            throw .malformed("argon2's \(name) is not base64")
        }
        return [UInt8](data)
    }

    /// Standard base64 without its padding, as PHC strings write it.
    private static func unpaddedBase64(_ bytes: [UInt8]) -> String {
        var text = Data(bytes).base64EncodedString()
        while text.hasSuffix("=") {
            text.removeLast()
        }
        return text
    }
}
