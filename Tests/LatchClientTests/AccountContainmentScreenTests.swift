// Issue 19 on the app's own screen: the holds, the anti-phishing code and "this wasn't me", as a model
// over a fake service, with the verification page scripted.
#if canImport(Observation)
    import Foundation
    import LatchClient
    import LatchCore
    import Testing

    @MainActor
    @Suite("Account containment screen (issue 19)")
    struct AccountContainmentScreenTests {
        let service = FakeContainmentService()

        func model(_ language: LatchLanguage = .zhHans, verify: @escaping ScreenVerifier = { _ in .cancelled })
            -> AccountContainmentModel
        {
            AccountContainmentModel(
                service: service, language: language, timeZone: TimeZone(identifier: "Asia/Shanghai")!, verify: verify)
        }

        @Test func test_19_screenShowsHoldsAndCode() async {
            let model = model()

            await model.load()

            #expect(model.antiPhishingCodeLine == "未设置")
            #expect(model.holdLines == ["提现已暂停\n原因：登录密码已重置\n恢复时间：2026-11-27 12:00"])
            let english = self.model(.en)
            await english.load()
            #expect(
                english.holdLines == [
                    "Withdrawals Paused\nWhy: your password was reset.\nAvailable again: 2026-11-27 12:00"
                ])
        }

        @Test func test_19_4_screenSetsTheCodeAfterAVerificationWhenAsked() async {
            service.needsToken = true
            let asked = SessionTestBox<[String]>([])
            let model = model { context in
                asked.withLock { $0.append(context.action) }
                return .succeeded(
                    VerificationProof(token: "proof-1", expiresIn: 300, context: context, method: .fundPassword))
            }
            await model.load()

            // A code with a space is refused here already.
            model.codeEntry = "My Code"
            #expect(!model.canSaveCode)
            #expect(model.codeError == "防钓鱼码为4-20位可见字符，不含空格")

            model.codeEntry = "MyCode42"
            await model.saveCode()

            #expect(asked.withLock { $0 } == ["set_anti_phishing_code"])
            #expect(service.setCalls.map(\.token) == [nil, "proof-1"])
            #expect(model.antiPhishingCodeLine == "MyCode42")
            #expect(model.notice == "防钓鱼码已设置")
            #expect(model.codeEntry.isEmpty)

            await model.removeCode()
            #expect(model.antiPhishingCodeLine == "未设置")
            #expect(service.removeCalls == [nil, "proof-1"])
        }

        @Test func test_19_4_cancelledVerificationChangesNothing() async {
            service.needsToken = true
            let model = model()
            await model.load()
            model.codeEntry = "MyCode42"

            await model.saveCode()

            #expect(model.antiPhishingCodeLine == "未设置")
            #expect(model.failure == nil)
            #expect(model.codeEntry == "MyCode42")
        }

        @Test func test_19_3_freezeAfterOneConfirmationWithoutVerification() async {
            let verified = SessionTestBox(0)
            let model = model { _ in
                verified.withLock { $0 += 1 }
                return .cancelled
            }
            await model.load()

            // "这不是我本人操作": a confirmation first; cancel keeps everything.
            model.askToFreeze()
            #expect(model.isConfirmingFreeze)
            #expect(model.strings.freezeQuestion.hasPrefix("立即冻结账号？"))
            model.cancelFreeze()
            await model.confirmFreeze()
            #expect(service.freezes == 0)

            // Confirmed: frozen, no verification page.
            model.askToFreeze()
            await model.confirmFreeze()
            #expect(service.freezes == 1)
            #expect(model.isFrozen)
            #expect(model.notice == "账号已冻结，所有设备均已退出登录")
            #expect(verified.withLock { $0 } == 0)
        }

        @Test func test_19_4_codeRule() {
            #expect(AccountContainmentModel.isAcceptableCode("abcd"))
            #expect(AccountContainmentModel.isAcceptableCode("防钓鱼码很安全"))
            #expect(!AccountContainmentModel.isAcceptableCode("abc"))
            #expect(!AccountContainmentModel.isAcceptableCode(String(repeating: "a", count: 21)))
            #expect(!AccountContainmentModel.isAcceptableCode("ab\tcd"))
            #expect(!AccountContainmentModel.isAcceptableCode("ab\u{0007}cd"))
        }
    }
#endif
