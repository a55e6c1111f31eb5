#if canImport(Observation)
    import Foundation
    import Observation

    /// The approval screen (issue 43 §3) as the view reads it: the last screen `ApprovalDriver` showed, and
    /// the taps back to it. It decides nothing (`ApprovalFlow` does).
    ///
    ///     let model = ApprovalScreenModel()
    ///     let environment = LatchApprovalEnvironment(
    ///         client: client, authenticator: auth, keys: keys, verificationPresenter: sheet, language: .zhHans
    ///     ) { screen, respond in await model.show(screen, respond: respond) }
    ///     let driver = ApprovalDriver(flow: ApprovalFlow(subject: .signIn(link), language: .zhHans),
    ///                                 environment: environment)
    ///     // present ApprovalView(model: model) and VerificationSheet; then: let end = await driver.run()
    @MainActor
    @Observable
    public final class ApprovalScreenModel {
        /// What to draw; nil before the driver shows anything.
        public private(set) var screen: ApprovalScreen?
        @ObservationIgnored private var respond: (@Sendable (ApprovalInput) -> Void)?

        public init() {}

        /// Shows `screen`; taps go to `respond`.
        public func show(_ screen: ApprovalScreen, respond: @escaping @Sendable (ApprovalInput) -> Void) {
            self.screen = screen
            self.respond = respond
        }

        /// A tap on one of the screen's buttons.
        public func tap(_ button: ApprovalScreen.Button) {
            switch button {
            case .number(let number): respond?(.pickedNumber(number))
            case .deny: respond?(.tappedDeny)
            case .notMe: respond?(.tappedNotMe)
            case .close: respond?(.tappedClose)
            }
        }
    }
#endif

#if canImport(SwiftUI) && canImport(Observation)
    import LatchCore
    import SwiftUI

    /// The approval screen over an ``ApprovalScreenModel``: who asks and where, the three numbers, deny and
    /// "这不是我本人操作" / "This wasn't me". The Face ID step is the SDK's `VerificationSheet`.
    @MainActor
    public struct ApprovalView: View {
        private let model: ApprovalScreenModel
        private let strings: ApprovalStrings

        public init(model: ApprovalScreenModel, language: LatchLanguage) {
            self.model = model
            self.strings = ApprovalStrings(language)
        }

        public var body: some View {
            if let screen = model.screen {
                VStack(spacing: 16) {
                    Text(screen.title).font(.headline)
                    Text(screen.message)
                        .foregroundStyle(screen.isWarning ? Color.orange : Color.primary)
                        .multilineTextAlignment(.center)
                    ForEach(screen.details, id: \.self) { Text($0).font(.subheadline) }
                    if let instruction = screen.instruction { Text(instruction).font(.footnote) }
                    HStack(spacing: 12) {
                        ForEach(screen.numbers, id: \.self) { number in
                            Button(number) { model.tap(.number(number)) }
                                .font(.largeTitle.monospacedDigit())
                                .buttonStyle(.bordered)
                        }
                    }
                    if screen.kind == .busy || screen.kind == .loading { ProgressView() }
                    ForEach(Array(screen.buttons.enumerated()), id: \.offset) { _, button in
                        switch button {
                        case .number: EmptyView()
                        case .deny: Button(strings.deny) { model.tap(.deny) }
                        case .notMe: Button(strings.notMe, role: .destructive) { model.tap(.notMe) }
                        case .close: Button(strings.done) { model.tap(.close) }
                        }
                    }
                }
                .padding()
                .announcing(screen.message)
            }
        }
    }
#endif
