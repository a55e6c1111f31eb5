/// Argon2 (RFC 9106), written by hand so that latchd can verify imported argon2 hashes (issue 45 §2).
///
/// The lanes are filled one after another on the calling thread, which gives the same tag as filling them
/// in parallel: within a slice no lane reads a segment another lane is writing.
///
/// ```swift
/// let tag = Argon2.hash(
///     password: Array("hunter2".utf8), salt: salt, variant: .argon2id,
///     memoryKiB: 65_536, iterations: 3, parallelism: 4, length: 32)
/// ```
enum Argon2 {
    /// Which way a block's reference is chosen (RFC 9106 §3.4.1).
    enum Variant: String, Sendable {
        /// Data-dependent: the reference comes from the previous block's first word.
        case argon2d
        /// Data-independent: the reference comes from address blocks that depend only on the position.
        case argon2i
        /// argon2i for the first half of the first pass, argon2d after.
        case argon2id

        /// The type's number y in the initial hash and the address blocks.
        var typeNumber: UInt32 {
            switch self {
            case .argon2d: 0
            case .argon2i: 1
            case .argon2id: 2
            }
        }
    }

    /// The tag of `length` bytes for `password` under `salt`, with the optional `secret` (K) and
    /// `associatedData` (X), in `memoryKiB` KiB over `iterations` passes and `parallelism` lanes.
    ///
    /// `version` is 0x13 (RFC 9106) or 0x10 (the older version, which overwrites blocks on later passes
    /// instead of XORing into them). The caller checks the parameters first; out-of-range ones trap.
    static func hash(
        password: [UInt8], salt: [UInt8], secret: [UInt8] = [], associatedData: [UInt8] = [],
        variant: Variant, version: Int = 0x13, memoryKiB: Int, iterations: Int, parallelism: Int, length: Int
    ) -> [UInt8] {
        precondition(version == 0x13 || version == 0x10, "argon2's version is 0x10 or 0x13")
        precondition((1...0xFF_FFFF).contains(parallelism), "argon2 has 1 to 2^24-1 lanes")
        precondition(memoryKiB >= 8 * parallelism && memoryKiB <= UInt32.max, "argon2 needs 8p to 2^32-1 KiB")
        precondition(iterations >= 1 && iterations <= UInt32.max, "argon2 makes 1 to 2^32-1 passes")
        precondition(length >= 4 && length <= UInt32.max, "argon2's tag has 4 to 2^32-1 bytes")
        precondition(salt.count >= 8, "argon2's salt has at least 8 bytes")
        for input in [password, salt, secret, associatedData] {
            precondition(input.count <= UInt32.max, "argon2's inputs have at most 2^32-1 bytes")
        }

        var initial: [UInt8] = []
        for number in [parallelism, length, memoryKiB, iterations, version, Int(variant.typeNumber)] {
            initial.appendLittleEndian32(number)
        }
        for input in [password, salt, secret, associatedData] {
            initial.appendLittleEndian32(input.count)
            initial += input
        }
        let initialHash = Blake2b.hash(initial, outputLength: 64)

        let geometry = Argon2Geometry(memoryKiB: memoryKiB, parallelism: parallelism)
        var words = [UInt64](repeating: 0, count: (geometry.blockCount + Argon2Filler.scratchBlocks) * 128)
        let finalBlock = words.withUnsafeMutableBufferPointer { buffer in
            var filler = Argon2Filler(
                memory: buffer.baseAddress!, geometry: geometry, passes: iterations, variant: variant,
                version: version)
            for lane in 0..<parallelism {
                for position in 0..<2 {
                    var seed = initialHash
                    seed.appendLittleEndian32(position)
                    seed.appendLittleEndian32(lane)
                    filler.store(variableLengthHash(seed, length: 1024), at: lane * geometry.laneLength + position)
                }
            }
            for pass in 0..<iterations {
                for slice in 0..<4 {
                    for lane in 0..<parallelism {
                        filler.fillSegment(pass: pass, slice: slice, lane: lane)
                    }
                }
            }
            return filler.xorOfLastBlocks()
        }
        return variableLengthHash(finalBlock, length: length)
    }

    /// H' (RFC 9106 §3.3): a hash of any length from BLAKE2b, chaining 64-byte digests and keeping the first
    /// 32 bytes of each but the last.
    static func variableLengthHash(_ input: [UInt8], length: Int) -> [UInt8] {
        var prefixed: [UInt8] = []
        prefixed.appendLittleEndian32(length)
        prefixed += input
        if length <= 64 {
            return Blake2b.hash(prefixed, outputLength: length)
        }
        let wholeDigests = (length + 31) / 32 - 2
        var digest = Blake2b.hash(prefixed, outputLength: 64)
        var output = Array(digest.prefix(32))
        output.reserveCapacity(length)
        for _ in 1..<wholeDigests {
            digest = Blake2b.hash(digest, outputLength: 64)
            output += digest.prefix(32)
        }
        output += Blake2b.hash(digest, outputLength: length - 32 * wholeDigests)
        return output
    }
}

/// The shape of argon2's memory: `parallelism` lanes of four segments each (RFC 9106 §3.2).
private struct Argon2Geometry {
    /// The lanes, p.
    let lanes: Int
    /// The blocks in one lane, q: m rounded down to a multiple of 4p, divided by p.
    let laneLength: Int
    /// The blocks in one segment, a quarter of a lane.
    let segmentLength: Int
    /// The blocks in memory, m'.
    var blockCount: Int { lanes * laneLength }

    init(memoryKiB: Int, parallelism: Int) {
        lanes = parallelism
        segmentLength = memoryKiB / (4 * parallelism)
        laneLength = 4 * segmentLength
    }
}

/// Fills argon2's memory, 128 words a block, in place; scratch blocks follow the memory blocks.
private struct Argon2Filler {
    /// The blocks after memory: the compression's two working blocks, and the zero, input and address blocks
    /// of data-independent addressing.
    static let scratchBlocks = 5

    /// Words per block (1 KiB).
    private static let blockWords = 128

    private let memory: UnsafeMutablePointer<UInt64>
    private let geometry: Argon2Geometry
    private let passes: Int
    private let variant: Argon2.Variant
    private let version: Int
    private let working: UnsafeMutablePointer<UInt64>
    private let kept: UnsafeMutablePointer<UInt64>
    private let zero: UnsafeMutablePointer<UInt64>
    private let input: UnsafeMutablePointer<UInt64>
    private let addresses: UnsafeMutablePointer<UInt64>

    init(
        memory: UnsafeMutablePointer<UInt64>, geometry: Argon2Geometry, passes: Int, variant: Argon2.Variant,
        version: Int
    ) {
        self.memory = memory
        self.geometry = geometry
        self.passes = passes
        self.variant = variant
        self.version = version
        let scratch = memory + geometry.blockCount * Self.blockWords
        working = scratch
        kept = scratch + Self.blockWords
        zero = scratch + 2 * Self.blockWords
        input = scratch + 3 * Self.blockWords
        addresses = scratch + 4 * Self.blockWords
    }

    /// The block at `index` in memory.
    private func block(_ index: Int) -> UnsafeMutablePointer<UInt64> {
        memory + index * Self.blockWords
    }

    /// Writes 1024 little-endian bytes into the block at `index`.
    func store(_ bytes: [UInt8], at index: Int) {
        let target = block(index)
        for word in 0..<Self.blockWords {
            var value: UInt64 = 0
            for byte in 0..<8 {
                value |= UInt64(bytes[word * 8 + byte]) << UInt64(byte * 8)
            }
            target[word] = value
        }
    }

    /// The bytes of the XOR of every lane's last block, C in RFC 9106 §3.2 step 7.
    func xorOfLastBlocks() -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Self.blockWords * 8)
        for word in 0..<Self.blockWords {
            var value: UInt64 = 0
            for lane in 0..<geometry.lanes {
                value ^= block(lane * geometry.laneLength + geometry.laneLength - 1)[word]
            }
            for byte in 0..<8 {
                bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(byte * 8)))
            }
        }
        return bytes
    }

    /// Computes the blocks of one segment (RFC 9106 §3.2 steps 5 and 6, §3.4).
    mutating func fillSegment(pass: Int, slice: Int, lane: Int) {
        let independent = variant == .argon2i || (variant == .argon2id && pass == 0 && slice < 2)
        if independent {
            for word in 0..<Self.blockWords {
                input[word] = 0
            }
            for (word, value) in [pass, lane, slice, geometry.blockCount, passes, Int(variant.typeNumber)]
                .enumerated()
            {
                input[word] = UInt64(value)
            }
        }
        var first = 0
        if pass == 0 && slice == 0 {
            first = 2 // the two blocks made from H0
            if independent {
                nextAddresses()
            }
        }
        let xorsInto = version != 0x10 && pass > 0
        let laneStart = lane * geometry.laneLength
        for index in first..<geometry.segmentLength {
            let position = slice * geometry.segmentLength + index
            let previous = laneStart + (position == 0 ? geometry.laneLength - 1 : position - 1)
            let pseudoRandom: UInt64
            if independent {
                if index % Self.blockWords == 0 {
                    nextAddresses()
                }
                pseudoRandom = addresses[index % Self.blockWords]
            } else {
                pseudoRandom = block(previous)[0]
            }
            let referenceLane =
                pass == 0 && slice == 0 ? lane : Int(truncatingIfNeeded: (pseudoRandom >> 32) % UInt64(geometry.lanes))
            let reference = referenceIndex(
                pass: pass, slice: slice, index: index, sameLane: referenceLane == lane,
                random: pseudoRandom & 0xFFFF_FFFF)
            compress(
                block(previous), block(referenceLane * geometry.laneLength + reference),
                into: block(laneStart + position), xorsInto: xorsInto)
        }
    }

    /// The next address block for data-independent addressing: G(0, G(0, input)) after counting up.
    private func nextAddresses() {
        input[6] &+= 1
        compress(zero, input, into: addresses, xorsInto: false)
        compress(zero, addresses, into: addresses, xorsInto: false)
    }

    /// The index within the reference lane of the block that block `index` of the segment reads, from J1 =
    /// `random` (RFC 9106 §3.4.2).
    private func referenceIndex(pass: Int, slice: Int, index: Int, sameLane: Bool, random: UInt64) -> Int {
        let segmentLength = geometry.segmentLength
        let areaSize: Int
        if pass == 0 {
            if slice == 0 {
                areaSize = index - 1
            } else if sameLane {
                areaSize = slice * segmentLength + index - 1
            } else {
                areaSize = slice * segmentLength - (index == 0 ? 1 : 0)
            }
        } else if sameLane {
            areaSize = geometry.laneLength - segmentLength + index - 1
        } else {
            areaSize = geometry.laneLength - segmentLength - (index == 0 ? 1 : 0)
        }
        let area = UInt64(areaSize)
        let relative = area - 1 - ((area &* ((random &* random) >> 32)) >> 32)
        let start = pass == 0 || slice == 3 ? 0 : (slice + 1) * segmentLength
        return (start + Int(truncatingIfNeeded: relative)) % geometry.laneLength
    }

    /// G (RFC 9106 §3.5): `output` = P(R) ⊕ R with R = `x` ⊕ `y`, also XORed with `output`'s old words when
    /// `xorsInto` (version 0x13's later passes). `output` may be `y`.
    private func compress(
        _ x: UnsafeMutablePointer<UInt64>, _ y: UnsafeMutablePointer<UInt64>,
        into output: UnsafeMutablePointer<UInt64>, xorsInto: Bool
    ) {
        let r = working
        let t = kept
        for word in 0..<Self.blockWords {
            r[word] = x[word] ^ y[word]
        }
        if xorsInto {
            for word in 0..<Self.blockWords {
                t[word] = r[word] ^ output[word]
            }
        } else {
            t.update(from: r, count: Self.blockWords)
        }
        for row in 0..<8 {
            permute(r, start: row * 16, step: 2)
        }
        for column in 0..<8 {
            permute(r, start: column * 2, step: 16)
        }
        for word in 0..<Self.blockWords {
            output[word] = t[word] ^ r[word]
        }
    }
}

/// The permutation P (RFC 9106 §3.6) over the 16 words `start + k * step` and `start + k * step + 1`, k in
/// 0..<8: one row of the block when `step` is 2, one column when it is 16.
@inline(__always)
private func permute(_ block: UnsafeMutablePointer<UInt64>, start: Int, step: Int) {
    let p = block + start
    var v0 = p[0]
    var v1 = p[1]
    var v2 = p[step]
    var v3 = p[step + 1]
    var v4 = p[2 * step]
    var v5 = p[2 * step + 1]
    var v6 = p[3 * step]
    var v7 = p[3 * step + 1]
    var v8 = p[4 * step]
    var v9 = p[4 * step + 1]
    var v10 = p[5 * step]
    var v11 = p[5 * step + 1]
    var v12 = p[6 * step]
    var v13 = p[6 * step + 1]
    var v14 = p[7 * step]
    var v15 = p[7 * step + 1]
    mix(&v0, &v4, &v8, &v12)
    mix(&v1, &v5, &v9, &v13)
    mix(&v2, &v6, &v10, &v14)
    mix(&v3, &v7, &v11, &v15)
    mix(&v0, &v5, &v10, &v15)
    mix(&v1, &v6, &v11, &v12)
    mix(&v2, &v7, &v8, &v13)
    mix(&v3, &v4, &v9, &v14)
    p[0] = v0
    p[1] = v1
    p[step] = v2
    p[step + 1] = v3
    p[2 * step] = v4
    p[2 * step + 1] = v5
    p[3 * step] = v6
    p[3 * step + 1] = v7
    p[4 * step] = v8
    p[4 * step + 1] = v9
    p[5 * step] = v10
    p[5 * step + 1] = v11
    p[6 * step] = v12
    p[6 * step + 1] = v13
    p[7 * step] = v14
    p[7 * step + 1] = v15
}

/// GB (RFC 9106 §3.6): BLAKE2b's G with each addition strengthened by twice the product of the low halves.
@inline(__always)
private func mix(_ a: inout UInt64, _ b: inout UInt64, _ c: inout UInt64, _ d: inout UInt64) {
    a = a &+ b &+ 2 &* (a & 0xFFFF_FFFF) &* (b & 0xFFFF_FFFF)
    d = rotateRight(d ^ a, 32)
    c = c &+ d &+ 2 &* (c & 0xFFFF_FFFF) &* (d & 0xFFFF_FFFF)
    b = rotateRight(b ^ c, 24)
    a = a &+ b &+ 2 &* (a & 0xFFFF_FFFF) &* (b & 0xFFFF_FFFF)
    d = rotateRight(d ^ a, 16)
    c = c &+ d &+ 2 &* (c & 0xFFFF_FFFF) &* (d & 0xFFFF_FFFF)
    b = rotateRight(b ^ c, 63)
}

/// `word` rotated right by `count` bits.
@inline(__always)
private func rotateRight(_ word: UInt64, _ count: UInt64) -> UInt64 {
    (word >> count) | (word << (64 - count))
}

extension [UInt8] {
    /// Appends `value` as four little-endian bytes, LE32 in RFC 9106.
    fileprivate mutating func appendLittleEndian32(_ value: Int) {
        let word = UInt32(truncatingIfNeeded: value)
        for shift in stride(from: 0, to: 32, by: 8) {
            append(UInt8(truncatingIfNeeded: word >> UInt32(shift)))
        }
    }
}
