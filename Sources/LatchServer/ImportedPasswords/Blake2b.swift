/// BLAKE2b (RFC 7693), written by hand for argon2 (issue 45 §2): a digest of 1 to 64 bytes, optionally keyed,
/// fed in pieces.
///
/// ```swift
/// var blake = Blake2b(outputLength: 64)
/// blake.update(Array("abc".utf8))
/// let digest = blake.finalize()  // ba80a53f981c4d0d…
/// ```
struct Blake2b {
    /// The eight words of the chaining value, h in RFC 7693.
    private var state: [UInt64]
    /// Input not compressed yet: up to one block, because the last block is compressed differently.
    private var pending: [UInt8] = []
    /// The bytes compressed so far, t in RFC 7693 (a 128-bit counter; 2^64 bytes is never reached here).
    private var compressedCount: UInt64 = 0
    /// The digest's length in bytes, nn in RFC 7693.
    let outputLength: Int

    /// The block size in bytes.
    static let blockLength = 128

    /// The initialisation vector: SHA-512's, RFC 7693 §2.6.
    private static let iv: [UInt64] = [
        0x6a09_e667_f3bc_c908, 0xbb67_ae85_84ca_a73b, 0x3c6e_f372_fe94_f82b, 0xa54f_f53a_5f1d_36f1,
        0x510e_527f_ade6_82d1, 0x9b05_688c_2b3e_6c1f, 0x1f83_d9ab_fb41_bd6b, 0x5be0_cd19_137e_2179
    ]

    /// The message schedule, RFC 7693 §2.7 (rounds 10 and 11 repeat rounds 0 and 1).
    private static let sigma: [[Int]] = [
        [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
        [14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3],
        [11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4],
        [7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8],
        [9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13],
        [2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9],
        [12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11],
        [13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10],
        [6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5],
        [10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0]
    ]

    /// Starts a digest of `outputLength` bytes (1...64), keyed with `key` (at most 64 bytes) if it is not empty.
    init(outputLength: Int, key: [UInt8] = []) {
        precondition((1...64).contains(outputLength), "BLAKE2b makes 1 to 64 bytes")
        precondition(key.count <= 64, "a BLAKE2b key has at most 64 bytes")
        self.outputLength = outputLength
        state = Self.iv
        // The parameter block: digest length, key length, fanout 1, depth 1 (RFC 7693 §2.5).
        state[0] ^= 0x0101_0000 ^ UInt64(key.count) << 8 ^ UInt64(outputLength)
        if !key.isEmpty {
            pending = key + [UInt8](repeating: 0, count: Self.blockLength - key.count)
        }
    }

    /// The `outputLength`-byte BLAKE2b digest of `input`.
    static func hash(_ input: [UInt8], outputLength: Int = 64) -> [UInt8] {
        var blake = Blake2b(outputLength: outputLength)
        blake.update(input)
        return blake.finalize()
    }

    /// Adds `bytes` to the message.
    mutating func update(_ bytes: [UInt8]) {
        var start = 0
        while start < bytes.count {
            if pending.count == Self.blockLength {
                compressedCount &+= UInt64(Self.blockLength)
                compress(pending, isLast: false)
                pending.removeAll(keepingCapacity: true)
            }
            let end = min(bytes.count, start + Self.blockLength - pending.count)
            pending += bytes[start..<end]
            start = end
        }
    }

    /// Compresses what is left, padded with zeros, as the last block and returns the digest.
    mutating func finalize() -> [UInt8] {
        compressedCount &+= UInt64(pending.count)
        pending += [UInt8](repeating: 0, count: Self.blockLength - pending.count)
        compress(pending, isLast: true)
        var digest: [UInt8] = []
        digest.reserveCapacity(64)
        for word in state {
            for shift in stride(from: 0, to: 64, by: 8) {
                digest.append(UInt8(truncatingIfNeeded: word >> UInt64(shift)))
            }
        }
        return Array(digest.prefix(outputLength))
    }

    /// The compression function F (RFC 7693 §3.2) over one 128-byte block.
    private mutating func compress(_ block: [UInt8], isLast: Bool) {
        var message = [UInt64](repeating: 0, count: 16)
        for index in 0..<16 {
            for byte in 0..<8 {
                message[index] |= UInt64(block[index * 8 + byte]) << UInt64(byte * 8)
            }
        }
        var work = state + Self.iv
        work[12] ^= compressedCount
        if isLast {
            work[14] = ~work[14]
        }
        for round in 0..<12 {
            let schedule = Self.sigma[round % 10]
            func mix(_ a: Int, _ b: Int, _ c: Int, _ d: Int, _ x: UInt64, _ y: UInt64) {
                work[a] = work[a] &+ work[b] &+ x
                work[d] = rotateRight(work[d] ^ work[a], 32)
                work[c] = work[c] &+ work[d]
                work[b] = rotateRight(work[b] ^ work[c], 24)
                work[a] = work[a] &+ work[b] &+ y
                work[d] = rotateRight(work[d] ^ work[a], 16)
                work[c] = work[c] &+ work[d]
                work[b] = rotateRight(work[b] ^ work[c], 63)
            }
            mix(0, 4, 8, 12, message[schedule[0]], message[schedule[1]])
            mix(1, 5, 9, 13, message[schedule[2]], message[schedule[3]])
            mix(2, 6, 10, 14, message[schedule[4]], message[schedule[5]])
            mix(3, 7, 11, 15, message[schedule[6]], message[schedule[7]])
            mix(0, 5, 10, 15, message[schedule[8]], message[schedule[9]])
            mix(1, 6, 11, 12, message[schedule[10]], message[schedule[11]])
            mix(2, 7, 8, 13, message[schedule[12]], message[schedule[13]])
            mix(3, 4, 9, 14, message[schedule[14]], message[schedule[15]])
        }
        for index in 0..<8 {
            state[index] ^= work[index] ^ work[index + 8]
        }
    }
}

/// `word` rotated right by `count` bits.
@inline(__always)
private func rotateRight(_ word: UInt64, _ count: UInt64) -> UInt64 {
    (word >> count) | (word << (64 - count))
}
