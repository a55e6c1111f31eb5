// Issue 30 §3 through the driver: the environment answers the first factor with the progress, the page
// between the factors continues to the emailed code, which is sent and entered; the proof comes back.
import Foundation
import LatchClient
import LatchCore
import LatchTestSupport
import Testing

@Suite("Verification driver with two factors (issue 30 §3)")
struct VerificationTwoFactorDriverTests {
    typealias F = VerificationFixtures

    @Test("30 §3 the driver runs Face ID, the page between the factors, then the emailed code (sent, entered)")
    func test_30_3_driverTwoFactorsWithEmailedCode() async throws {
        var started = F.started()
        started.requiredFactors = 2
        let progress = VerificationProgress(
            remainingFactors: 1, passed: [.biometric], methods: [VerificationMethodOffer(type: .emailCode)])
        let environment = TwoFactorEnvironment(
            started: started, answers: [.needsAnotherFactor(progress), .passed(F.passed)])
        let driver = VerificationDriver(flow: F.flow(), environment: environment)
        let run = Task { await driver.run() }

        // Face ID passed; the page says one more is needed.
        let between = try await environment.next(.factorPassed)
        #expect(between.message == "已通过面容验证，还需完成一项验证")
        driver.send(.tapped(.continue))

        // The emailed code: sent on request, then entered.
        _ = try await environment.next(.emailCode) { $0.input == nil && !$0.isBusy }
        driver.send(.tapped(.sendCode))
        _ = try await environment.next(.emailCode) { $0.input != nil && !$0.isBusy }
        #expect(await environment.emailCodesSent == ["v-1"])
        driver.send(.submittedCode(VerificationSecret("123456")))

        let result = await run.value
        #expect(
            result
                == .succeeded(
                    VerificationProof(token: "vt-123", expiresIn: 300, context: F.withdrawal, method: .emailCode)))
        #expect(await environment.attempts.map(\.method) == [.biometric, .emailCode])
        #expect(await environment.attempts.last?.code == "123456")
    }

    @Test(
        "30 §3 the resend button's label ticks down each second through the driver (the wait is slept one second at a time), then Resend is enabled"
    )
    func test_30_3_resendLabelTicksEachSecond() async throws {
        let started = VerificationStarted(
            verificationId: "v-1", methods: [VerificationMethodOffer(type: .emailCode)], preferred: .emailCode,
            expiresIn: 300)
        let clock = TestClock()
        let environment = TwoFactorEnvironment(started: started, answers: [.passed(F.passed)], clock: clock)
        let flow = VerificationFlow(
            context: F.withdrawal, device: F.device(), language: .en,
            timeZone: TimeZone(identifier: "Asia/Shanghai")!, clock: clock.read)
        let driver = VerificationDriver(flow: flow, environment: environment)
        let run = Task { await driver.run() }

        _ = try await environment.next(.emailCode) { $0.input == nil && !$0.isBusy }
        driver.send(.tapped(.sendCode))
        var labels: [String] = []
        while labels.last != "Resend Code", labels.count < 100 {
            let page = try await environment.next(.emailCode) { $0.input != nil && !$0.isBusy }
            labels.append(try #require(page.button(.sendCode)?.title))
        }
        #expect(labels.count == 61, "60 seconds, one page each, then the enabled button: \(labels)")
        #expect(labels.first == "Resend in 60 s" && labels[1] == "Resend in 59 s" && labels[59] == "Resend in 1 s")
        #expect(await environment.resendSleeps.allSatisfy { $0 == 1 }, "one second at a time")
        driver.send(.submittedCode(VerificationSecret("123456")))
        guard case .succeeded(let proof) = await run.value else {
            Issue.record("expected the proof")
            return
        }
        #expect(proof.token == "vt-123")
    }
}
