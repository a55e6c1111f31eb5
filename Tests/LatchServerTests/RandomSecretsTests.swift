import Foundation
import Testing

@testable import LatchServer

/// Issue 44 §4: the access token's `jti` is a UUID drawn without Foundation's three system calls.
@Suite("Issue 44 §4: random UUIDs")
struct RandomSecretsTests {
    @Test("44 §4: RandomSecrets.uuid is a version-4 UUID of RFC 9562's variant whose 122 other bits all vary")
    func test_44_4_randomUUIDIsVersion4AndEveryRandomBitVaries() {
        let uuids = (0..<1000).map { _ in RandomSecrets.uuid() }
        #expect(Set(uuids).count == 1000, "no two alike")
        var seenOne = [Bool](repeating: false, count: 128)
        var seenZero = [Bool](repeating: false, count: 128)
        for uuid in uuids {
            let bytes = withUnsafeBytes(of: uuid.uuid) { Array($0) }
            #expect(bytes[6] >> 4 == 4, "version 4")
            #expect(bytes[8] >> 6 == 0b10, "the variant")
            for bit in 0..<128 {
                if bytes[bit / 8] >> (7 - bit % 8) & 1 == 1 { seenOne[bit] = true } else { seenZero[bit] = true }
            }
        }
        let fixed: Set<Int> = [48, 49, 50, 51, 64, 65] // the version's 4 bits and the variant's 2
        let varying = (0..<128).filter { seenOne[$0] && seenZero[$0] }
        #expect(Set(varying) == Set(0..<128).subtracting(fixed), "every bit but the version's and the variant's varies")
        // Foundation reads it back the same (the string form a token carries).
        #expect(uuids.allSatisfy { UUID(uuidString: $0.uuidString) == $0 })
    }
}
