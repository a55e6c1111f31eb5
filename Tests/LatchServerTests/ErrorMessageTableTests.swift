import Foundation
import HTTPTypes
import LatchCore
import NIOHTTP1
import Testing

@testable import LatchServer

/// Issue 14 §3: the server's own error messages live in one table, in both languages.
@Suite("Issue 14 error message table")
struct ErrorMessageTableTests {
    @Test("test_I14 every message of the table has its own Chinese and English text; LatchError uses it")
    func test_I14_messagesInBothLanguages() {
        let all: [ErrorMessage] = [
            .methodLocked, .lastSignInMethod(.remove), .lastSignInMethod(.unlink), .providerNotConfigured(.wechat),
            .providerRejected(.apple), .providerUnavailable(.phone)
        ]
        for message in all {
            let zh = message.text(in: .zhHans)
            let en = message.text(in: .en)
            #expect(!zh.isEmpty && !en.isEmpty && zh != en, "\(message)")
            #expect(zh.unicodeScalars.contains { $0.value >= 0x4E00 && $0.value <= 0x9FFF }, "\(message)")
        }
        let locked = LatchError.methodLocked(until: .distantFuture, language: .zhHans)
        #expect(locked.message == "该验证方式已被锁定，请稍后再试或使用其他方式验证" && locked.status.code == 423)
    }
}
