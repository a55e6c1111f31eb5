import Foundation
import LatchCore
import Testing

/// C11: AUTH_001 "邮箱或密码错误", AUTH_002 "账号已被锁定", AUTH_003 "验证码错误", AUTH_004 "登录已过期".
@Suite("C11 error codes")
struct LatchErrorCodeTests {
    @Test func C11_authCodesHaveStableRawValues() {
        let codes: [LatchErrorCode] = [.wrongCredentials, .locked, .wrongCode, .sessionExpired]

        let rawValues = codes.map(\.rawValue)

        #expect(rawValues == ["AUTH_001", "AUTH_002", "AUTH_003", "AUTH_004"])
    }

    @Test func C11_authCodesDecodeFromTheirRawValues() {
        let rawValues = ["AUTH_001", "AUTH_002", "AUTH_003", "AUTH_004"]

        let codes = rawValues.map(LatchErrorCode.init(rawValue:))

        #expect(codes == [.wrongCredentials, .locked, .wrongCode, .sessionExpired])
    }

    @Test func C11_zhHansMessagesAreTheSpecWording() {
        let codes: [LatchErrorCode] = [.wrongCredentials, .locked, .wrongCode, .sessionExpired]

        let messages = codes.map { $0.message(in: .zhHans) }

        #expect(messages == ["邮箱或密码错误", "账号已被锁定", "验证码错误", "登录已过期"])
    }

    @Test(arguments: LatchErrorCode.allCases)
    func C11_everyCodeHasAMessageInBothLanguages(code: LatchErrorCode) {
        let chinese = code.message(in: .zhHans)
        let english = code.message(in: .en)

        #expect(!chinese.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty)
        #expect(!english.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty)
        #expect(chinese != english)
    }

    @Test func C11_rawValuesAreUnique() {
        let rawValues = LatchErrorCode.allCases.map(\.rawValue)

        #expect(Set(rawValues).count == rawValues.count)
    }
}
