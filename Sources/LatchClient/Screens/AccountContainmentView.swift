#if canImport(SwiftUI) && canImport(Observation)
    import SwiftUI

    /// The account containment screen (issue 19) over an ``AccountContainmentModel``: the anti-phishing
    /// code, the running security holds and "这不是我本人操作" / "This wasn't me". It decides nothing.
    @MainActor
    public struct AccountContainmentView: View {
        @Bindable private var model: AccountContainmentModel

        public init(model: AccountContainmentModel) {
            self.model = model
        }

        public var body: some View {
            Form {
                Section {
                    LabeledContent(model.strings.antiPhishingTitle, value: model.antiPhishingCodeLine)
                    TextField(model.strings.codePlaceholder, text: $model.codeEntry)
                        .autocorrectionDisabled()
                    if let error = model.codeError { Text(error).foregroundStyle(.red) }
                    Button(model.strings.save) { Task { await model.saveCode() } }
                        .disabled(!model.canSaveCode)
                    if model.status?.antiPhishingCode != nil {
                        Button(model.strings.remove, role: .destructive) { Task { await model.removeCode() } }
                    }
                } footer: {
                    Text(model.strings.antiPhishingExplanation)
                }
                Section(model.strings.holdsTitle) {
                    if model.holdLines.isEmpty {
                        Text(model.strings.noHolds)
                    }
                    ForEach(model.holdLines, id: \.self) { Text($0) }
                }
                Section {
                    Button(model.strings.freeze, role: .destructive) { model.askToFreeze() }
                        .disabled(model.isFrozen)
                }
                if let failure = model.failure { Text(failure.message).foregroundStyle(.red) }
                if let notice = model.notice { Text(notice) }
            }
            .navigationTitle(model.strings.title)
            .disabled(model.isBusy)
            .announcing(model.failure?.message)
            .announcing(model.notice)
            .confirmationDialog(
                model.strings.freezeQuestion,
                isPresented: Binding(get: { model.isConfirmingFreeze }, set: { if !$0 { model.cancelFreeze() } }),
                titleVisibility: .visible
            ) {
                Button(model.strings.confirmFreeze, role: .destructive) { Task { await model.confirmFreeze() } }
                Button(model.strings.cancel, role: .cancel) { model.cancelFreeze() }
            }
            .task { await model.load() }
        }
    }
#endif
