#if canImport(SwiftUI) && canImport(Observation)
    import SwiftUI

    /// The biometric offer after sign-in (seed 004 §9.2) over a ``BiometricOfferModel``: title, line,
    /// "启用" / "Turn On" and "暂不" / "Not Now". It decides nothing.
    ///
    ///     .sheet(isPresented: .constant(offer.isOffered)) { BiometricOfferView(model: offer) }
    @MainActor
    public struct BiometricOfferView: View {
        private let model: BiometricOfferModel

        public init(model: BiometricOfferModel) {
            self.model = model
        }

        public var body: some View {
            VStack(spacing: 16) {
                Text(model.title)
                    .font(.headline)
                    .accessibilityAddTraits(.isHeader)
                Text(model.message)
                    .multilineTextAlignment(.center)
                if let notice = model.notice {
                    Text(notice).foregroundStyle(.red)
                }
                if case .offered(let kind) = model.step {
                    Button(model.strings.accept) { Task { await model.accept() } }
                        .buttonStyle(.borderedProminent)
                        .accessibilityHint(model.strings.acceptHint(kind))
                    Button(model.strings.notNow) { Task { await model.notNow() } }
                        .accessibilityHint(model.strings.notNowHint)
                } else {
                    ProgressView()
                }
            }
            .padding(24)
            .announcing(model.notice)
        }
    }
#endif
