#if canImport(Observation)
    import Foundation
    import LatchCore
    import Testing

    @testable import LatchClient

    /// Issue 43 §3: the approval screen's model only shows what the driver decides and passes taps back.
    @Suite("Issue 43 §3: the approval screen's model")
    @MainActor
    struct ApprovalScreenModelTests {
        final class Inputs: @unchecked Sendable {
            // @unchecked Sendable: used from the main actor only.
            var list: [ApprovalInput] = []
        }

        @Test("43.3 the model shows the driver's screen and passes the taps back as inputs")
        func test_43_3_screenModelPassesTaps() {
            let model = ApprovalScreenModel()
            let inputs = Inputs()
            let screen = ApprovalScreen(kind: .choosing, title: "Sign-In Request", message: "?", numbers: ["17", "42"])

            model.show(screen) { input in MainActor.assumeIsolated { inputs.list.append(input) } }
            model.tap(.number("42"))
            model.tap(.deny)
            model.tap(.notMe)
            model.tap(.close)

            #expect(model.screen == screen)
            #expect(inputs.list == [.pickedNumber("42"), .tappedDeny, .tappedNotMe, .tappedClose])
        }
    }
#endif
