#if canImport(Observation)
    import Foundation
    import LatchCore
    import Observation

    /// The account containment screen (issue 19) as a tested model: the running security holds (what is
    /// paused, why, until when), the anti-phishing code (shown, set, removed; a verification when the
    /// server asks), and "这不是我本人操作" / "This wasn't me": a freeze after one confirmation, no verification.
    /// `AccountContainmentView` only renders it.
    ///
    ///     @State private var model = AccountContainmentModel(service: client, language: .zhHans) { context in
    ///         await client.verify(context, authenticator: auth, keys: keys, presenter: sheet, language: .zhHans)
    ///     }
    @MainActor
    @Observable
    public final class AccountContainmentModel {
        /// The holds and the code as last read; `nil` until loaded.
        public private(set) var status: AccountSecurityStatus?
        /// A request is running.
        public private(set) var isBusy = false
        /// The last failure; cleared by the next request.
        public private(set) var failure: ScreenFailure?
        /// A passing note ("防钓鱼码已设置" / "The anti-phishing code is set.").
        public private(set) var notice: String?
        /// The typed anti-phishing code.
        public var codeEntry = ""
        /// The freeze confirmation is up.
        public private(set) var isConfirmingFreeze = false
        /// The account was frozen from here (this device is signed out).
        public private(set) var isFrozen = false
        /// The texts.
        public let strings: AccountContainmentStrings

        @ObservationIgnored private let service: any AccountContainmentService
        @ObservationIgnored private let holdStrings: VerificationStrings
        @ObservationIgnored private let timeZone: TimeZone
        @ObservationIgnored private let screenVerification: ScreenVerification

        /// - Parameter verify: runs the verification page when the server asks for one (see ``ScreenVerifier``).
        public init(
            service: any AccountContainmentService, language: LatchLanguage, timeZone: TimeZone = .current,
            verify: @escaping ScreenVerifier
        ) {
            self.service = service
            self.strings = AccountContainmentStrings(language)
            self.holdStrings = VerificationStrings(language)
            self.timeZone = timeZone
            self.screenVerification = ScreenVerification(verify: verify)
        }

        /// The code as shown: the code, or "未设置" / "Not set".
        public var antiPhishingCodeLine: String { status?.antiPhishingCode ?? strings.antiPhishingNotSet }

        /// One line per running hold: what is paused, why, until when.
        public var holdLines: [String] {
            (status?.holds ?? []).map { hold in
                let held = hold.actions.map(holdStrings.holdTitle).joined(separator: " · ")
                return [
                    held, holdStrings.holdReason(hold.knownReason), holdStrings.holdUntil(hold.holdUntil, in: timeZone)
                ]
                .joined(separator: "\n")
            }
        }

        /// "保存" / "Save" works: an acceptable code typed, nothing running.
        public var canSaveCode: Bool { !isBusy && Self.isAcceptableCode(codeEntry) }

        /// The rule under the field, while the typed code is not acceptable.
        public var codeError: String? {
            codeEntry.isEmpty || Self.isAcceptableCode(codeEntry) ? nil : strings.codeRule
        }

        /// 4–20 visible characters: no spaces, no control characters (the server's rule).
        public static func isAcceptableCode(_ code: String) -> Bool {
            (4...20).contains(code.count)
                && code.unicodeScalars.allSatisfy {
                    !$0.properties.isWhitespace && !CharacterSet.controlCharacters.contains($0)
                }
        }

        /// Reads the holds and the code.
        public func load() async {
            await perform { self.status = try await self.service.accountSecurity() }
        }

        /// "保存" / "Save": sets the code (after a verification of `set_anti_phishing_code` when asked).
        public func saveCode() async {
            guard canSaveCode else { return }
            let code = codeEntry
            await perform {
                let context = VerificationContext(
                    action: LatchClient.setAntiPhishingCodeAction, localizedReason: self.strings.codeVerificationReason)
                guard
                    try await self.screenVerification.run(
                        context, { try await self.service.setAntiPhishingCode(code, verificationToken: $0) })
                        != nil
                else { return }
                self.status?.antiPhishingCode = code
                self.codeEntry = ""
                self.notice = self.strings.codeSaved
            }
        }

        /// "移除" / "Remove".
        public func removeCode() async {
            guard !isBusy, status?.antiPhishingCode != nil else { return }
            await perform {
                let context = VerificationContext(
                    action: LatchClient.setAntiPhishingCodeAction, localizedReason: self.strings.codeVerificationReason)
                guard
                    try await self.screenVerification.run(
                        context, { try await self.service.removeAntiPhishingCode(verificationToken: $0) }) != nil
                else { return }
                self.status?.antiPhishingCode = nil
                self.notice = self.strings.codeRemoved
            }
        }

        /// "这不是我本人操作" / "This wasn't me": asks to confirm first.
        public func askToFreeze() {
            guard !isBusy, !isFrozen else { return }
            isConfirmingFreeze = true
        }

        /// "取消" / "Cancel" on the confirmation.
        public func cancelFreeze() {
            isConfirmingFreeze = false
        }

        /// "确认冻结" / "Freeze": no verification (freezing must be easy); this device is signed out after.
        public func confirmFreeze() async {
            guard isConfirmingFreeze, !isBusy else { return }
            isConfirmingFreeze = false
            await perform {
                try await self.service.freezeAccount()
                self.isFrozen = true
                self.notice = self.strings.frozen
            }
        }

        private func perform(_ work: @MainActor () async throws -> Void) async {
            isBusy = true
            failure = nil
            notice = nil
            // The work may have set a failure of its own (a biometric check that did not pass): kept.
            if let failed = await ScreenVerification.failure(of: work, language: strings.language) { failure = failed }
            isBusy = false
        }
    }
#endif
