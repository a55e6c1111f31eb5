#if canImport(Observation)
    import LatchCore
    import Observation

    /// The biometric offer after the first successful sign-in (seed 004 §9.2 "首次登录成功后 → 提示启用生物识别",
    /// issue 23 §1) as a tested model: ``load()`` decides whether to offer (a supported sensor, none bound
    /// here, not answered before); "启用" / "Turn On" runs the binding flow; "暂不" / "Not Now" is remembered.
    /// `BiometricOfferView` only renders it.
    ///
    ///     let offer = BiometricOfferModel(service: securityService, language: .zhHans)
    ///     await offer.load()                       // after signIn succeeded
    ///     if offer.isOffered { present(BiometricOfferView(model: offer)) }
    @MainActor
    @Observable
    public final class BiometricOfferModel {
        /// Where the offer stands.
        public enum Step: Sendable, Equatable {
            /// Not decided yet (before ``load()``).
            case checking
            /// Offered for this sensor.
            case offered(BiometryKind)
            /// The binding flow runs.
            case enabling(BiometryKind)
            /// Biometric sign-in is on.
            case enabled(BiometryKind)
            /// Nothing to offer, or declined.
            case closed
        }

        /// Where the offer stands.
        public private(set) var step: Step = .checking
        /// Why turning it on did not work (the prompt did not pass, the sensor is unavailable, the server
        /// refused); the offer stays so that it can be tried again or declined.
        public private(set) var notice: String?
        /// The texts.
        public let strings: BiometricOfferStrings

        @ObservationIgnored private let service: any BiometricOfferService
        @ObservationIgnored private let language: LatchLanguage

        public init(service: any BiometricOfferService, language: LatchLanguage) {
            self.service = service
            self.language = language
            self.strings = BiometricOfferStrings(language)
        }

        /// Whether the offer is up.
        public var isOffered: Bool {
            switch step {
            case .offered, .enabling: true
            case .checking, .enabled, .closed: false
            }
        }

        /// The offer's title, e.g. "启用面容登录？" / "Turn on Face ID sign-in?" (empty when nothing is offered).
        public var title: String { kind.map(strings.title) ?? "" }
        /// The offer's line.
        public var message: String { kind.map(strings.message) ?? "" }

        /// Decides whether to offer, after a successful sign-in.
        public func load() async {
            guard case .checking = step else { return }
            step = await service.biometricOffer().map(Step.offered) ?? .closed
        }

        /// "暂不" / "Not Now": remembered; not offered again on this device.
        public func notNow() async {
            guard case .offered = step else { return }
            step = .closed
            await service.answerBiometricOffer()
        }

        /// "启用" / "Turn On": the binding flow. A cancelled prompt leaves the offer up without a notice.
        public func accept() async {
            guard case .offered(let kind) = step else { return }
            step = .enabling(kind)
            notice = nil
            do {
                switch try await service.enableBiometricSignIn(verificationToken: nil) {
                case .enabled(let binding):
                    step = .enabled(binding.biometry)
                    await service.answerBiometricOffer()
                case .unavailable(let reason):
                    step = .offered(kind)
                    notice = BiometricNotice.unavailable(reason, kind: kind).text(in: language)
                case .notVerified(let failure):
                    step = .offered(kind)
                    switch failure.handling {
                    case .cancelLike, .userFallback: notice = nil
                    case .authenticationFailed: notice = BiometricNotice.notRecognized(kind).text(in: language)
                    case .settingsLike, .lockout, .retryWhenActive, .unexpected:
                        notice = (BiometricNotice(failure: failure.code, kind: kind) ?? .failed(kind)).text(
                            in: language)
                    }
                }
            } catch {
                step = .offered(kind)
                notice = ScreenFailure(error, language: language).message
            }
        }

        private var kind: BiometryKind? {
            switch step {
            case .offered(let kind), .enabling(let kind), .enabled(let kind): kind
            case .checking, .closed: nil
            }
        }
    }
#endif
