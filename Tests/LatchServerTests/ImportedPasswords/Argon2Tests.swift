import Testing

@testable import LatchServer

/// Issue 45 §2: latchd verifies imported argon2 hashes with its own argon2 (RFC 9106) and BLAKE2b (RFC 7693),
/// checked against the RFCs' vectors and hashes made by argon2-cffi (scripts/interop/argon2_vectors.py).
@Suite("Issue 45 §2: argon2 (RFC 9106) and BLAKE2b (RFC 7693) written by hand, and argon2's PHC strings")
struct Argon2Tests {
    /// A PHC string argon2-cffi made for "password" (m=64, t=2, p=1), which the refusals below break.
    static let sample = "$argon2id$v=19$m=64,t=2,p=1$gImnvVE0snLJBI58r9fBRw$gTy2EiWNIogTLn1RL7AFUFbCPrtp3flNk5CYvt72lvo"
    /// Its salt (16 bytes) and hash (32 bytes) in base64.
    static let salt = "gImnvVE0snLJBI58r9fBRw"
    static let hash = "gTy2EiWNIogTLn1RL7AFUFbCPrtp3flNk5CYvt72lvo"

    // MARK: BLAKE2b

    @Test("45 §2 BLAKE2b-512 of \"abc\" is RFC 7693 Appendix A's digest")
    func test_45_2_blake2bMatchesRFC7693Vector() {
        let digest = Blake2b.hash(Array("abc".utf8))

        #expect(
            hex(digest)
                == "ba80a53f981c4d0d6a2797b69f12f6e94c212f14685ac4b74b12bb6fdbffa2d1"
                + "7d87c5392aab792dc252d5de4533cc9518d38aa8dbf1925ab92386edd4009923")
    }

    @Test(
        "45 §2 BLAKE2b matches Python's hashlib.blake2b: empty input, whole and partial blocks, short digests, keys"
    )
    func test_45_2_blake2bMatchesHashlib() {
        #expect(
            hex(Blake2b.hash([]))
                == "786a02f742015903c6c6fd852552d272912f4740e15847618a86e217f71f5419"
                + "d25e1031afee585313896444934eb04b903a685b1448b755d56f701afe9be2ce")
        #expect(
            hex(Blake2b.hash((0..<128).map { UInt8($0) }, outputLength: 32))
                == "c3582f71ebb2be66fa5dd750f80baae97554f3b015663c8be377cfcb2488c1d1")
        #expect(hex(Blake2b.hash((0..<256).map { UInt8($0) } + (0..<44).map { UInt8($0) }, outputLength: 1)) == "ac")

        // Keyed, fed in three pieces across the block boundary.
        var keyed = Blake2b(outputLength: 20, key: (0..<64).map { UInt8($0) })
        keyed.update((0..<100).map { UInt8($0) })
        keyed.update((100..<128).map { UInt8($0) })
        keyed.update([128])
        #expect(hex(keyed.finalize()) == "f46289ed3ea8e885a92eb9f66895019f02c1e8aa")

        var keyedEmpty = Blake2b(outputLength: 64, key: Array("key".utf8))
        #expect(
            hex(keyedEmpty.finalize())
                == "5b3cfd8f422b490b764b55eceb330b500c79cbefa9a928ad00202b8b3c5dd778"
                + "a81122570434a2e3b8bfd028d105dfefd0a9576e88ed66de742ca9fbb5f8d2b6")
    }

    // MARK: RFC 9106 §5

    @Test("45 §2 Argon2d matches RFC 9106 §5.1's vector (m=32, t=3, p=4, secret and associated data)")
    func test_45_2_argon2dMatchesRFC9106Vector() {
        #expect(hex(rfc9106Tag(.argon2d)) == "512b391b6f1162975371d30919734294f868e3be3984f3c1a13a4db9fabe4acb")
    }

    @Test("45 §2 Argon2i matches RFC 9106 §5.2's vector (m=32, t=3, p=4, secret and associated data)")
    func test_45_2_argon2iMatchesRFC9106Vector() {
        #expect(hex(rfc9106Tag(.argon2i)) == "c814d9d1dc7f37aa13f0d77f2494bda1c8de6b016dd388d29952a4c4672b6ce8")
    }

    @Test("45 §2 Argon2id matches RFC 9106 §5.3's vector (m=32, t=3, p=4, secret and associated data)")
    func test_45_2_argon2idMatchesRFC9106Vector() {
        #expect(hex(rfc9106Tag(.argon2id)) == "0d640df58d78766c08c037a34a8b53c9d01ef0452d75b65eb52520e96b01e659")
    }

    /// The tag of RFC 9106 §5's inputs: password 32 × 01, salt 16 × 02, secret 8 × 03, associated data 12 × 04.
    private func rfc9106Tag(_ variant: Argon2.Variant) -> [UInt8] {
        Argon2.hash(
            password: [UInt8](repeating: 1, count: 32), salt: [UInt8](repeating: 2, count: 16),
            secret: [UInt8](repeating: 3, count: 8), associatedData: [UInt8](repeating: 4, count: 12),
            variant: variant, memoryKiB: 32, iterations: 3, parallelism: 4, length: 32)
    }

    // MARK: argon2-cffi's hashes

    @Test(
        "45 §2 a hash argon2-cffi made verifies with its password, not with another, and prints back the same",
        arguments: Argon2CFFIVectors.all)
    func test_45_2_argon2CFFIHashVerifies(password: String, phc: String) throws {
        let stored = try Argon2Hash(phc: phc)

        #expect(stored.verify(password))
        #expect(!stored.verify(password + "x"))
        #expect(stored.phc == phc)
    }

    @Test("45 §2 a PHC string's fields are read: variant, version, m, t, p, salt and hash")
    func test_45_2_argon2PHCFieldsAreRead() throws {
        let stored = try Argon2Hash(phc: Self.sample)

        #expect(stored.variant == .argon2id)
        #expect(stored.version == 0x13)
        #expect((stored.memoryKiB, stored.iterations, stored.parallelism) == (64, 2, 1))
        #expect(stored.salt.count == 16)
        #expect(stored.hash.count == 32)
    }

    @Test("45 §2 a PHC string without v= is version 0x10, and prints back with v=16")
    func test_45_2_argon2WithoutVersionIsVersion16() throws {
        let withVersion = try #require(Argon2CFFIVectors.all.first { $0.phc.contains("$v=16$") })
        let withoutVersion = withVersion.phc.replacing("$v=16$", with: "$")

        let stored = try Argon2Hash(phc: withoutVersion)

        #expect(stored.version == 0x10)
        #expect(stored.verify(withVersion.password))
        #expect(stored.phc == withVersion.phc)
        // The same string read as version 0x13 gives another tag.
        let asVersion19 = try Argon2Hash(phc: withVersion.phc.replacing("$v=16$", with: "$v=19$"))
        #expect(!asVersion19.verify(withVersion.password))
    }

    @Test("45 §2 base64 with its padding is tolerated and printed back without it")
    func test_45_2_argon2Base64PaddingIsTolerated() throws {
        let padded = "$argon2id$v=19$m=64,t=2,p=1$\(Self.salt)==$\(Self.hash)="

        let stored = try Argon2Hash(phc: padded)

        #expect(stored.verify("password"))
        #expect(stored.phc == Self.sample)
    }

    @Test("45 §2 a tag that differs in its first byte does not verify")
    func test_45_2_argon2ChangedTagDoesNotVerify() throws {
        let changed = "$argon2id$v=19$m=64,t=2,p=1$\(Self.salt)$h" + Self.hash.dropFirst()

        let stored = try Argon2Hash(phc: changed)

        #expect(!stored.verify("password"))
    }

    // MARK: Refusals

    @Test(
        "45 §2 a string that is not argon2 is an unknown format",
        arguments: [
            "", "$", "$2b$12$abcdefghijklmnopqrstuuPLzuy8JpjFfUVKxBLAs8EptVb0mmr6S", "$argon2$v=19$m=64,t=2,p=1$a$b",
            "$Argon2id$v=19$m=64,t=2,p=1$\(salt)$\(hash)", "argon2id$v=19$m=64,t=2,p=1$\(salt)$\(hash)",
            "$scrypt$ln=16,r=8,p=1$aM15713r3Xsvxbi31lqr1Q$nFNh2CVHVjNldFVKDHDlm4CbdRSCdEBsjjJxD+iCs5E"
        ])
    func test_45_2_argon2RefusesOtherFormats(phc: String) {
        let error = #expect(throws: ImportedHashRefusal.self) { try Argon2Hash(phc: phc) }

        #expect(error == .unknownFormat)
    }

    @Test(
        "45 §2 a malformed argon2 string is refused as malformed, never a crash",
        arguments: [
            // Base64.
            ("bad character in the salt", "$argon2id$v=19$m=64,t=2,p=1$gImnvVE0snLJBI58r9fBR!$\(hash)"),
            ("space in the hash", "$argon2id$v=19$m=64,t=2,p=1$\(salt)$gTy2Ei WNIogTLn1RL7AFUFbCPrtp3flNk5CYvt72lvo"),
            ("salt of 4n+1 characters", "$argon2id$v=19$m=64,t=2,p=1$gImnvVE0s$\(hash)"),
            ("one padding character where two are due", "$argon2id$v=19$m=64,t=2,p=1$\(salt)=$\(hash)"),
            ("three padding characters", "$argon2id$v=19$m=64,t=2,p=1$\(salt)===$\(hash)"),
            ("padding in the middle", "$argon2id$v=19$m=64,t=2,p=1$gImn=vE0snLJBI58r9fBRw$\(hash)"),
            // Lengths.
            ("salt of 7 bytes", "$argon2id$v=19$m=64,t=2,p=1$AAAAAAAAAA$\(hash)"),
            ("empty salt", "$argon2id$v=19$m=64,t=2,p=1$$\(hash)"),
            ("hash of 3 bytes", "$argon2id$v=19$m=64,t=2,p=1$\(salt)$AAAA"),
            ("hash of 1025 bytes", "$argon2id$v=19$m=64,t=2,p=1$\(salt)$\(String(repeating: "A", count: 1367))"),
            // Costs.
            ("m under 8 KiB per lane", "$argon2id$v=19$m=31,t=1,p=4$\(salt)$\(hash)"),
            ("m of 0", "$argon2id$v=19$m=0,t=1,p=1$\(salt)$\(hash)"),
            ("t of 0", "$argon2id$v=19$m=64,t=0,p=1$\(salt)$\(hash)"),
            ("p of 0", "$argon2id$v=19$m=64,t=2,p=0$\(salt)$\(hash)"),
            ("p of 2^24", "$argon2id$v=19$m=64,t=2,p=16777216$\(salt)$\(hash)"),
            // Numbers.
            ("m of 2^32", "$argon2id$v=19$m=4294967296,t=2,p=1$\(salt)$\(hash)"),
            ("huge m", "$argon2id$v=19$m=99999999999999999999999999999999,t=2,p=1$\(salt)$\(hash)"),
            ("t of 2^64", "$argon2id$v=19$m=64,t=18446744073709551616,p=1$\(salt)$\(hash)"),
            ("signed m", "$argon2id$v=19$m=+64,t=2,p=1$\(salt)$\(hash)"),
            ("negative t", "$argon2id$v=19$m=64,t=-2,p=1$\(salt)$\(hash)"),
            ("hexadecimal m", "$argon2id$v=19$m=0x40,t=2,p=1$\(salt)$\(hash)"),
            ("empty m", "$argon2id$v=19$m=,t=2,p=1$\(salt)$\(hash)"),
            // Parameters.
            ("unknown parameter", "$argon2id$v=19$m=64,t=2,p=1,x=1$\(salt)$\(hash)"),
            ("the old reference's keyid", "$argon2id$v=19$m=64,t=2,p=1,keyid=AAAA$\(salt)$\(hash)"),
            ("missing p", "$argon2id$v=19$m=64,t=2$\(salt)$\(hash)"),
            ("m given twice", "$argon2id$v=19$m=64,m=64,t=2,p=1$\(salt)$\(hash)"),
            ("parameter without =", "$argon2id$v=19$m64,t=2,p=1$\(salt)$\(hash)"),
            ("spaces between parameters", "$argon2id$v=19$m=64, t=2, p=1$\(salt)$\(hash)"),
            ("empty parameters", "$argon2id$v=19$$\(salt)$\(hash)"),
            // Version and fields.
            ("version 20", "$argon2id$v=20$m=64,t=2,p=1$\(salt)$\(hash)"),
            ("empty version", "$argon2id$v=$m=64,t=2,p=1$\(salt)$\(hash)"),
            ("version with letters", "$argon2id$v=19x$m=64,t=2,p=1$\(salt)$\(hash)"),
            ("no hash", "$argon2id$v=19$m=64,t=2,p=1$\(salt)"),
            ("an extra field", "$argon2id$v=19$m=64,t=2,p=1$\(salt)$\(hash)$AAAA"),
            ("version twice", "$argon2id$v=19$v=19$m=64,t=2,p=1$\(salt)$\(hash)")
        ])
    func test_45_2_argon2RefusesMalformedStrings(why: String, phc: String) {
        let error = #expect(throws: ImportedHashRefusal.self, "\(why)") { try Argon2Hash(phc: phc) }

        guard case .malformed = error else {
            Issue.record("\(why): \(String(describing: error)), not malformed")
            return
        }
    }

    @Test(
        "45 §2 an argon2 hash over a cap is refused with the parameter, its value and the cap",
        arguments: [
            ("m=65537,t=1,p=1", ImportedHashRefusal.overCap(parameter: "m", value: 65_537, cap: 65_536)),
            ("m=64,t=11,p=1", .overCap(parameter: "t", value: 11, cap: 10)),
            ("m=512,t=1,p=9", .overCap(parameter: "p", value: 9, cap: 8)),
            ("m=65536,t=5,p=4", .overCap(parameter: "m*t", value: 327_680, cap: 262_144))
        ])
    func test_45_2_argon2RefusesCostsOverCaps(parameters: String, refusal: ImportedHashRefusal) throws {
        let stored = try Argon2Hash(phc: "$argon2id$v=19$\(parameters)$\(Self.salt)$\(Self.hash)")

        let error = #expect(throws: ImportedHashRefusal.self) { try stored.check(.standard) }

        #expect(error == refusal)
    }

    @Test("45 §2 an argon2 hash at every cap passes the check, and caps can be lowered")
    func test_45_2_argon2AtTheCapsPasses() throws {
        let atCaps = try Argon2Hash(phc: "$argon2id$v=19$m=65536,t=4,p=8$\(Self.salt)$\(Self.hash)")
        let highPasses = try Argon2Hash(phc: "$argon2id$v=19$m=8,t=10,p=1$\(Self.salt)$\(Self.hash)")

        try atCaps.check(.standard)
        try highPasses.check(.standard)

        var lower = ImportedHashCaps.standard
        lower.argon2MemoryKiB = 32
        #expect(throws: ImportedHashRefusal.overCap(parameter: "m", value: 64, cap: 32)) {
            try Argon2Hash(phc: Self.sample).check(lower)
        }
    }
}

/// `bytes` in lower-case hexadecimal.
private func hex(_ bytes: [UInt8]) -> String {
    let digits = Array("0123456789abcdef")
    return String(bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0x0F)]] })
}
