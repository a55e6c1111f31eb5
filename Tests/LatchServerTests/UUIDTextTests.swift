import Foundation
import Testing

@testable import LatchServer

/// Issue 44 §4: ids written and read without `snprintf` and `sscanf`, exactly as Foundation spells them.
@Suite("Issue 44 §4: UUID text")
struct UUIDTextTests {
    @Test("44 §4: a UUID's text is Foundation's, in either case, and reads back as the same UUID")
    func test_44_4_uuidTextIsFoundations() {
        for _ in 0..<1000 {
            let uuid = UUID()
            #expect(UUIDText.uppercase(uuid) == uuid.uuidString)
            #expect(UUIDText.lowercase(uuid) == uuid.uuidString.lowercased())
            #expect(UUIDText.uuid(uuid.uuidString) == uuid)
            #expect(UUIDText.uuid(uuid.uuidString.lowercased()) == uuid)
        }
        let edges = UUID(uuid: (0, 0x0F, 0x10, 0xFF, 0xA0, 0x0A, 0x9F, 0xF9, 0, 1, 2, 3, 0xFE, 0xEF, 0x7F, 0x80))
        #expect(UUIDText.lowercase(edges) == "000f10ff-a00a-9ff9-0001-0203feef7f80")
        #expect(UUIDText.uuid("000F10FF-A00A-9FF9-0001-0203FEEF7F80") == edges)
    }

    @Test("44 §4: only the canonical form reads as a UUID")
    func test_44_4_onlyCanonicalTextReads() {
        let refused = [
            "", "000f10ff-a00a-9ff9-0001-0203feef7f8", "000f10ff-a00a-9ff9-0001-0203feef7f800",
            "000f10ffa-00a-9ff9-0001-0203feef7f80", "000f10ff-a00a-9ff9-0001_0203feef7f80",
            "000f10fg-a00a-9ff9-0001-0203feef7f80", "000f10ff-a00a-9ff9-0001-0203feef7f8 ",
            "{000f10ff-a00a-9ff9-0001-0203feef7f80}", "000f10ff-a00a-9ff9-0001-0203feéf7f8"
        ]
        for text in refused { #expect(UUIDText.uuid(text) == nil, "\(text)") }
    }
}
