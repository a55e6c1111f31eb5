#if canImport(SwiftUI) && canImport(Observation)
    import SwiftUI

    /// The signed-in devices screen (seed 004 §6.2) over a ``SignedInDevicesModel``: rows, "退出" / "Sign Out" on
    /// each other device, "退出其他设备" / "Sign Out Other Devices", and the confirmation the model asks for.
    ///
    ///     SignedInDevicesView(model: model)
    @MainActor
    public struct SignedInDevicesView: View {
        @Bindable private var model: SignedInDevicesModel

        public init(model: SignedInDevicesModel) {
            self.model = model
        }

        public var body: some View {
            List {
                Section {
                    ForEach(model.rows) { row in
                        HStack {
                            VStack(alignment: .leading) {
                                Text(row.title)
                                Text(row.lastActive).font(.footnote).foregroundStyle(.secondary)
                                if let detail = row.detail { Text(detail).font(.footnote).foregroundStyle(.secondary) }
                            }
                            .accessibilityElement(children: .ignore)
                            .accessibilityLabel(row.accessibilityLabel)
                            Spacer()
                            if row.canSignOut {
                                Button(model.strings.signOutRow, role: .destructive) { model.askToSignOut(row) }
                                    .accessibilityLabel(model.strings.signOutRowLabel(row.name))
                                    .buttonStyle(.borderless)
                            }
                        }
                    }
                }
                Section {
                    Button(model.strings.signOutOthers, role: .destructive) { model.askToSignOutOthers() }
                        .disabled(!model.canSignOutOthers)
                } footer: {
                    if model.isLoaded && !model.hasOtherDevices { Text(model.strings.noOtherDevices) }
                }
                if let failure = model.failure {
                    Section {
                        Text(failure.message).foregroundStyle(.red)
                        Button(model.strings.retry) { Task { await model.load() } }
                    }
                }
                if let notice = model.notice { Text(notice) }
            }
            .announcing(model.failure?.message)
            .announcing(model.notice)
            .navigationTitle(model.strings.title)
            .overlay { if model.isBusy && !model.isLoaded { ProgressView(model.strings.loading) } }
            .task { if !model.isLoaded { await model.load() } }
            .refreshable { await model.load() }
            .tickingEverySecond { model.tick() }
            .confirmationDialog(
                model.confirmationMessage ?? "",
                isPresented: $model.isConfirmingSignOut,
                titleVisibility: .visible
            ) {
                Button(model.strings.signOutRow, role: .destructive) { Task { await model.confirmSignOut() } }
                Button(model.strings.cancel, role: .cancel) { model.cancelSignOut() }
            }
        }
    }
#endif
