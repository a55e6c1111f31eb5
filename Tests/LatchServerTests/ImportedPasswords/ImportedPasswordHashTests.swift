import LatchCore
import NIOPosix
import Testing

@testable import LatchServer

/// Hashes made by passlib, bcrypt, Django, firebase-scrypt and hashlib (`ImportedHashVectors`), read, capped and
/// verified as at an import and a sign-in.
@Suite("Imported password hashes (issue 45 §2)")
struct ImportedPasswordHashTests {
    /// `password` with its last character changed.
    private func wrong(_ password: String) -> String {
        String(password.dropLast()) + (password.last == "x" ? "y" : "x")
    }

    /// Reads `text` as an import with legacy digests allowed does, or records the refusal.
    private func read(_ text: String, allowLegacy: Bool = true) -> Result<ImportedPasswordHash, ImportedHashRefusal> {
        Result { () throws(ImportedHashRefusal) in try ImportedPasswordHash(stored: text, allowLegacy: allowLegacy) }
    }

    /// The refusal of `text`, or nil when it is read.
    private func refusal(_ text: String, allowLegacy: Bool = true) -> ImportedHashRefusal? {
        if case .failure(let refusal) = read(text, allowLegacy: allowLegacy) { refusal } else { nil }
    }

    @Test("45 §2 every vector verifies with its password and not with a one-character change")
    func test_45_2_vectorsVerify() throws {
        for vector in ImportedHashVectors.all {
            let hash = try read(vector.stored).get()

            #expect(hash.formatName == vector.format, "\(vector.stored)")
            #expect(hash.verify(vector.password), "\(vector.stored)")
            #expect(!hash.verify(wrong(vector.password)), "\(vector.stored)")
            #expect(!hash.verify(""), "\(vector.stored)")
        }
    }

    @Test("45 §2 every format of the issue is among the vectors")
    func test_45_2_vectorsCoverEveryFormat() {
        let formats = Set(ImportedHashVectors.all.map(\.format))

        #expect(
            formats.isSuperset(of: [
                "bcrypt", "scrypt", "firebase_scrypt", "pbkdf2_sha256", "pbkdf2_sha512", "md5", "sha1", "sha256"
            ]))
        #expect(ImportedHashVectors.all.contains { $0.stored.hasPrefix("pbkdf2_sha256$1000000$") })
    }

    @Test("45 §2 the stored text reads back as the same hash, and is stored the same again")
    func test_45_2_storedRoundTrips() throws {
        for vector in ImportedHashVectors.all {
            let hash = try read(vector.stored).get()

            let again = try read(hash.stored).get()

            #expect(again == hash, "\(vector.stored)")
            #expect(again.stored == hash.stored, "\(vector.stored)")
        }
    }

    @Test("45 §2 the dialect imported is the dialect stored")
    func test_45_2_storedKeepsTheDialect() throws {
        for vector in ImportedHashVectors.all where !vector.stored.hasPrefix("{") && !vector.stored.hasPrefix("$2") {
            #expect(try read(vector.stored).get().stored == vector.stored)
        }
        for vector in ImportedHashVectors.all where vector.stored.hasPrefix("$2b$") {
            #expect(try read(vector.stored).get().stored == vector.stored)
        }
    }

    @Test("45 §2 argon2 PHC strings (argon2-cffi's) go to Argon2Hash and verify through the imported hash")
    func test_45_2_argon2ThroughImportedHash() throws {
        for vector in Argon2CFFIVectors.all {
            let hash = try read(vector.phc, allowLegacy: false).get()

            #expect(hash.formatName == String(vector.phc.dropFirst().prefix { $0 != "$" }))
            #expect(hash.stored == vector.phc)
            #expect(try read(hash.stored).get() == hash)
            #expect(hash.verify(vector.password))
            #expect(!hash.verify(wrong(vector.password)))
            #expect(!hash.isLegacy)
        }
    }

    @Test("45 §2 Firebase's scrypt verifies the test vector of Firebase's scrypt repository")
    func test_45_2_firebaseKnownVector() throws {
        let text = """
            {"algorithm": "firebase_scrypt", "hash": "lSrfV15cpx95/sZS2W9c9Kp6i/LVgQNDNC/qzrCnh1SAyZvqmZqAjTdn3aoItz+VHjoZilo78198JAdRuid5lQ==",
             "salt": "42xEC+ixf3L2lw==", "salt_separator": "Bw==", "rounds": 8, "mem_cost": 14,
             "signer_key": "jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA=="}
            """

        let hash = try read(text, allowLegacy: false).get()

        #expect(hash.verify("user1password"))
        #expect(!hash.verify("user1passwore"))
        #expect(!hash.isLegacy)
        #expect(throws: Never.self) { try hash.check(.standard) }
        #expect(hash.stored.hasPrefix(#"{"algorithm":"firebase_scrypt","hash":"lSrfV15cpx95/sZS2W9c9Kp6i/"#))
    }

    @Test("45 §2 $2a$ and $2y$ are stored as $2b$ and still verify")
    func test_45_2_bcryptPrefixesNormalized() throws {
        for vector in ImportedHashVectors.all where vector.stored.hasPrefix("$2a$") || vector.stored.hasPrefix("$2y$") {
            let hash = try read(vector.stored).get()

            #expect(hash.stored == "$2b$" + vector.stored.dropFirst(4))
            #expect(hash.verify(vector.password))
            #expect(!hash.verify(wrong(vector.password)))
        }
        #expect(ImportedHashVectors.all.contains { $0.stored.hasPrefix("$2a$") })
        #expect(ImportedHashVectors.all.contains { $0.stored.hasPrefix("$2y$") })
    }

    @Test("45 §2 bcrypt reads the first 72 bytes of a password, and refuses one with a NUL")
    func test_45_2_bcryptKeyLimits() throws {
        let vector = try #require(
            ImportedHashVectors.all.first { $0.format == "bcrypt" && $0.password.utf8.count == 72 })
        let hash = try read(vector.stored).get()

        #expect(hash.verify(vector.password + "anything past 72 bytes, as PHP and passlib"))
        #expect(!hash.verify(vector.password.dropLast() + "\u{0}x"))
        #expect(!hash.verify("\u{0}"))
    }

    @Test("45 §2 passlib's adapted base64 reads with . or +, padded or not")
    func test_45_2_passlibBase64() throws {
        #expect(HashBase64.decode("ab.c") == HashBase64.decode("ab+c"))
        #expect(HashBase64.decode("ab.c") == [0x69, 0xBF, 0x9C])
        #expect(HashBase64.passlib([0x69, 0xBF, 0x9C, 0xFF]) == "ab.c/w")
        #expect(HashBase64.decode("ab.c/w") == HashBase64.decode("ab+c/w=="))
        #expect(HashBase64.decode("a") == nil)
        #expect(HashBase64.decode("ab!c") == nil)
        var sawDot = false
        for vector in ImportedHashVectors.all
        where vector.stored.hasPrefix("$scrypt$") || vector.stored.hasPrefix("$pbkdf2") {
            sawDot = sawDot || vector.stored.contains(".")
            let plus = try read(vector.stored.replacing(".", with: "+")).get()

            #expect(plus == (try read(vector.stored).get()))
            #expect(plus.verify(vector.password))
        }
        #expect(sawDot)
    }

    @Test("45 §2 text in no format read is refused as unknown")
    func test_45_2_unknownFormat() {
        let texts = [
            "", "hunter2", "5f4dcc3b5aa765d61d8327deb882cf99", "$1$saltsalt$hash", "$5$rounds=5000$salt$hash",
            "$7$C6..../....SodiumChloride$kBGj9fHznVYFQMEn/qDCfrDevf9YDtcDdKvEqHJLV8D",
            "$2x$05$abcdefghijklmnopqrstuuCnmuLdd5Xh3E5qK1H2uSBrJV7R3kKyO", "$pbkdf2$1000$c2FsdA$aGFzaA",
            "pbkdf2_sha1$260000$salt$aGFzaA==", "sha1$salt$hash", #"{"algorithm": "whirlpool", "hash": "00"}"#,
            #"{"algorithm": "FIREBASE_SCRYPT"}"#
        ]

        for text in texts {
            #expect(refusal(text) == .unknownFormat, "\(text)")
        }
    }

    @Test("45 §2 each format's bad fields are refused as malformed, without the hash in the message")
    func test_45_2_malformed() {
        let firebase = { (change: String) in
            """
            {"algorithm":"firebase_scrypt","hash":"lSrfV15cpx95/sZS2W9c9Kp6i/LVgQNDNC/qzrCnh1SAyZvqmZqAjTdn3aoItz+VHjoZilo78198JAdRuid5lQ==",
            "salt":"42xEC+ixf3L2lw==","salt_separator":"Bw==","signer_key":"jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA==",
            \(change)}
            """
        }
        let texts = [
            // bcrypt: length, cost, alphabet
            "$2b$04$IbArexitbUj/pFHxvyTo/Om0WwXfHm07mhAfH4gKTzg0CSMnAnYS",
            "$2b$03$IbArexitbUj/pFHxvyTo/Om0WwXfHm07mhAfH4gKTzg0CSMnAnYSO",
            "$2b$32$IbArexitbUj/pFHxvyTo/Om0WwXfHm07mhAfH4gKTzg0CSMnAnYSO",
            "$2b$x4$IbArexitbUj/pFHxvyTo/Om0WwXfHm07mhAfH4gKTzg0CSMnAnYSO",
            "$2b$04$IbArexitbUj/pFHxvyTo/Om0WwXfHm07mhAfH4gKTzg0CSMnAnYS+",
            // scrypt: parameters, numbers, base64, lengths
            "$scrypt$ln=10,r=8$c2FsdA$IL7dC8CdqUwGzuiM6pzmmk.xeegpGYXmTbr18mrgt9w",
            "$scrypt$ln=10,r=8,p=1,p=1$c2FsdA$IL7dC8CdqUwGzuiM6pzmmk.xeegpGYXmTbr18mrgt9w",
            "$scrypt$ln=99999999999999999999999,r=8,p=1$c2FsdA$IL7dC8CdqUwGzuiM6pzmmk.xeegpGYXmTbr18mrgt9w",
            "$scrypt$ln=63,r=8,p=1$c2FsdA$IL7dC8CdqUwGzuiM6pzmmk.xeegpGYXmTbr18mrgt9w",
            "$scrypt$ln=10,r=0,p=1$c2FsdA$IL7dC8CdqUwGzuiM6pzmmk.xeegpGYXmTbr18mrgt9w",
            "$scrypt$ln=10,r=-8,p=1$c2FsdA$IL7dC8CdqUwGzuiM6pzmmk.xeegpGYXmTbr18mrgt9w",
            "$scrypt$ln=10,r=8,p=1$c2F!dA$IL7dC8CdqUwGzuiM6pzmmk.xeegpGYXmTbr18mrgt9w",
            "$scrypt$ln=10,r=8,p=1$c2FsdA$IL7dC8",
            "$scrypt$ln=10,r=8,p=1$c2FsdA",
            // PBKDF2: iterations, base64, lengths, fields
            "$pbkdf2-sha256$0$c2FsdA$uitxMAXW2cXKXGpphmP1fZW4Kt/ipyt5Um7eslHdoU0",
            "$pbkdf2-sha256$99999999999999999999$c2FsdA$uitxMAXW2cXKXGpphmP1fZW4Kt/ipyt5Um7eslHdoU0",
            "$pbkdf2-sha256$4294967296$c2FsdA$uitxMAXW2cXKXGpphmP1fZW4Kt/ipyt5Um7eslHdoU0",
            "$pbkdf2-sha512$1k$c2FsdA$uitxMAXW2cXKXGpphmP1fZW4Kt/ipyt5Um7eslHdoU0",
            "$pbkdf2-sha256$1000$c2F*dA$uitxMAXW2cXKXGpphmP1fZW4Kt/ipyt5Um7eslHdoU0",
            "$pbkdf2-sha256$1000$c2FsdA$uitxMA",
            "pbkdf2_sha256$1000000$uu1yRb8YV123vrOO4N3bnZ",
            "pbkdf2_sha256$1000000$$uitxMAXW2cXKXGpphmP1fZW4Kt/ipyt5Um7eslHdoU0=",
            "pbkdf2_sha256$-1$uu1yRb8YV123vrOO4N3bnZ$uitxMAXW2cXKXGpphmP1fZW4Kt/ipyt5Um7eslHdoU0=",
            // Firebase: fields, base64, lengths, numbers
            firebase(#""rounds": 8"#),
            firebase(#""rounds": 8, "mem_cost": "14""#),
            firebase(#""rounds": 8, "mem_cost": 0"#),
            firebase(#""rounds": 0, "mem_cost": 14"#),
            firebase(#""rounds": 8, "mem_cost": 1e40"#),
            firebase(#""rounds": 8, "mem_cost": 99999999999999999999999"#),
            firebase(#""rounds": 8, "mem_cost": 14"#).replacing("Bw==", with: "B*=="),
            firebase(#""rounds": 8, "mem_cost": 14"#).replacing("lSrfV15cpx95", with: "lSrfV15c"),
            // legacy digests: hex, length, types
            #"{"algorithm":"md5","hash":"5f4dcc3b5aa765d61d8327deb882cf9g"}"#,
            #"{"algorithm":"md5","hash":"5f4dcc3b5aa765d61d8327deb882cf"}"#,
            #"{"algorithm":"sha1","hash":"5f4dcc3b5aa765d61d8327deb882cf99"}"#,
            #"{"algorithm":"sha256","hash":"5f4dcc3b5aa765d61d8327deb882cf99","salt":7}"#,
            #"{"algorithm":"md5","hash":"5f4dcc3b5aa765d61d8327deb882cf99","salt":"x","salt_position":"middle"}"#,
            // JSON
            #"{"hash": "00"}"#, #"{"algorithm": 5}"#, "{not json", "{}"
        ]

        for text in texts {
            let refused = refusal(text)
            guard case .malformed(let what) = refused else {
                Issue.record("\(text) was \(String(describing: refused)), not malformed")
                continue
            }
            #expect(refused?.reason == "malformed_hash")
            #expect(!what.contains("IbArexitbUj") && !what.contains("IL7dC8") && !what.contains("uitxMA"))
            #expect(!what.contains("lSrfV15") && !what.contains("5f4dcc3b"))
        }
    }

    @Test("45 §2 a cost over each cap is refused, at the cap it is not")
    func test_45_2_caps() throws {
        let vectors = ImportedHashVectors.all
        func hash(_ where: (String) -> Bool) throws -> ImportedPasswordHash {
            try read(try #require(vectors.first { `where`($0.stored) }).stored).get()
        }
        func overCap(_ hash: ImportedPasswordHash, _ caps: ImportedHashCaps) -> String? {
            do {
                try hash.check(caps)
                return nil
            } catch {
                guard case .overCap(let parameter, _, _) = error else { return "not overCap" }
                return parameter
            }
        }
        var caps = ImportedHashCaps.standard

        // bcrypt: cost 13 passes the standard caps, 14 does not.
        #expect(overCap(try read("$2b$13$IbArexitbUj/pFHxvyTo/Om0WwXfHm07mhAfH4gKTzg0CSMnAnYSO").get(), caps) == nil)
        #expect(
            overCap(try read("$2y$14$IbArexitbUj/pFHxvyTo/Om0WwXfHm07mhAfH4gKTzg0CSMnAnYSO").get(), caps)
                == "bcrypt cost")
        #expect(
            overCap(try read("$2b$31$IbArexitbUj/pFHxvyTo/Om0WwXfHm07mhAfH4gKTzg0CSMnAnYSO").get(), caps)
                == "bcrypt cost")

        // scrypt: N, r, p and memory, each alone.
        let scrypt = try read("$scrypt$ln=17,r=8,p=1$c2FsdA$IL7dC8CdqUwGzuiM6pzmmk.xeegpGYXmTbr18mrgt9w").get()
        #expect(overCap(scrypt, caps) == nil)
        #expect(
            overCap(try read("$scrypt$ln=18,r=8,p=1$c2FsdA$IL7dC8CdqUwGzuiM6pzmmk.xeegpGYXmTbr18mrgt9w").get(), caps)
                == "scrypt N")
        #expect(
            overCap(try read("$scrypt$ln=10,r=17,p=1$c2FsdA$IL7dC8CdqUwGzuiM6pzmmk.xeegpGYXmTbr18mrgt9w").get(), caps)
                == "scrypt r")
        #expect(
            overCap(try read("$scrypt$ln=10,r=8,p=5$c2FsdA$IL7dC8CdqUwGzuiM6pzmmk.xeegpGYXmTbr18mrgt9w").get(), caps)
                == "scrypt p")
        #expect(
            overCap(try read("$scrypt$ln=17,r=16,p=1$c2FsdA$IL7dC8CdqUwGzuiM6pzmmk.xeegpGYXmTbr18mrgt9w").get(), caps)
                == "scrypt memory (bytes)")
        #expect(
            overCap(
                try read("$scrypt$ln=62,r=99999,p=1$c2FsdA$IL7dC8CdqUwGzuiM6pzmmk.xeegpGYXmTbr18mrgt9w").get(), caps)
                == "scrypt N")

        // Firebase: 2^mem_cost, rounds and memory.
        let firebase = try hash { $0.contains("firebase_scrypt") && $0.contains(#""mem_cost":14"#) }
        #expect(overCap(firebase, caps) == nil)
        caps.scryptN = 8_192
        #expect(overCap(firebase, caps) == "Firebase 2^mem_cost")
        caps = .standard
        caps.scryptR = 7
        #expect(overCap(firebase, caps) == "Firebase rounds")
        caps = .standard
        caps.scryptMemoryBytes = 128 * 16_384 * 8 - 1
        #expect(overCap(firebase, caps) == "scrypt memory (bytes)")
        caps = .standard

        // PBKDF2: iterations per hash function; Django's 1,000,000 passes the standard caps.
        let django = try hash { $0.hasPrefix("pbkdf2_sha256$1000000$") }
        #expect(overCap(django, caps) == nil)
        caps.pbkdf2SHA256Iterations = 999_999
        #expect(overCap(django, caps) == "PBKDF2-SHA256 iterations")
        let sha512 = try hash { $0.hasPrefix("$pbkdf2-sha512$") }
        #expect(overCap(sha512, caps) == nil)
        caps.pbkdf2SHA512Iterations = 999
        #expect(overCap(sha512, caps) == "PBKDF2-SHA512 iterations")
        caps = .standard

        // The refusal says the value and the cap.
        #expect(throws: ImportedHashRefusal.overCap(parameter: "bcrypt cost", value: 14, cap: 13)) {
            try read("$2b$14$IbArexitbUj/pFHxvyTo/Om0WwXfHm07mhAfH4gKTzg0CSMnAnYSO").get().check(.standard)
        }
    }

    @Test("45 §2 a hash over its caps, never checked, still does not trap at verify")
    func test_45_2_hugeCostsDoNotTrap() throws {
        let scrypt = try read("$scrypt$ln=62,r=99999,p=1$c2FsdA$IL7dC8CdqUwGzuiM6pzmmk.xeegpGYXmTbr18mrgt9w").get()

        #expect(!scrypt.verify("password"))
    }

    @Test("45 §2 MD5, SHA-1 and SHA-256 need the flag, and are legacy")
    func test_45_2_legacyNeedsTheFlag() throws {
        for vector in ImportedHashVectors.all {
            let hash = try read(vector.stored).get()
            let legacy = ["md5", "sha1", "sha256"].contains(vector.format)

            #expect(hash.isLegacy == legacy)
            if legacy {
                #expect(refusal(vector.stored, allowLegacy: false) == .legacyNotAllowed)
                #expect(refusal(hash.stored, allowLegacy: false)?.reason == "legacy_hash_not_allowed")
            } else {
                #expect(refusal(vector.stored, allowLegacy: false) == nil)
            }
        }
    }

    @Test("45 §2 a legacy digest's salt goes before the password unless said otherwise")
    func test_45_2_legacySaltPosition() throws {
        let before = try read(
            #"{"algorithm":"md5","hash":"\#(Hex.lowercase(LegacyDigestHash.Algorithm.md5.digest(Array("s@ltpw".utf8))))","salt":"s@lt"}"#
        ).get()

        #expect(before.verify("pw"))
        #expect(
            before.stored
                == #"{"algorithm":"md5","hash":"\#(Hex.lowercase(LegacyDigestHash.Algorithm.md5.digest(Array("s@ltpw".utf8))))","salt":"s@lt","salt_position":"before"}"#
        )
        #expect(
            try read(#"{"algorithm":"sha1","hash":"5baa61e4c9b93f3f0682250b6cf8331b7ee68fd8"}"#).get().verify(
                "password"))
    }

    @Test(
        "45 §2 a wrong password against a cheap imported hash takes a bcrypt check's time, as an unknown address does")
    func test_45_2_importedCheckPaddedToBcrypt() async throws {
        let pool = NIOThreadPool(numberOfThreads: 1)
        pool.start()
        let hasher = try PasswordHasher(cost: 10, pool: pool)
        // The unknown address's check, a few times: the mean the padding follows.
        for _ in 0..<3 { #expect(!(try await hasher.verify("wrong", against: nil))) }
        let bcrypt = hasher.bcryptCheckTime
        let md5 = try read(#"{"algorithm":"md5","hash":"5f4dcc3b5aa765d61d8327deb882cf99"}"#).get()
        let started = ContinuousClock.now
        #expect(!(try await hasher.verify("wrong", against: ImportedPasswordHash.columnPrefix + md5.stored)))
        let imported = ContinuousClock.now - started
        // The digest itself takes microseconds; the answer waits out the bcrypt check's time.
        #expect(imported >= bcrypt, "\(imported) < \(bcrypt)")
        #expect(try await hasher.verify("password", against: ImportedPasswordHash.columnPrefix + md5.stored))
        try await pool.shutdownGracefully()
    }
}
