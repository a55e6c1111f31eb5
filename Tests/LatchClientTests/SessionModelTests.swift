#if canImport(Observation)
    import Foundation
    import LatchTestSupport
    import Observation
    import Testing

    @testable import LatchClient

    /// C7 for SwiftUI: the `@Observable` model mirrors the client's state on the main actor.
    @MainActor
    @Suite("Session model (C7)")
    struct SessionModelTests {
        @Test func C7_modelMirrorsTheStateAndNotifiesObservers() async throws {
            // Set-up
            let harness = SessionHarness()
            let model = LatchSessionModel(client: harness.client)
            let changed = SessionTestBox(false)
            withObservationTracking {
                _ = model.state
            } onChange: {
                changed.withLock { $0 = true }
            }
            #expect(model.state == .signedOut)

            // Act
            try await harness.signIn()
            #expect(try await eventually { await model.isSignedIn })

            // Check
            #expect(model.user == SessionFakeServer.alice)
            #expect(changed.withLock { $0 })

            await harness.client.signOut()
            #expect(try await eventually { await model.state == .signedOut })
        }

        @Test func C7_modelStartsFromTheCurrentState() async throws {
            let harness = SessionHarness()
            try await harness.signIn()

            let model = LatchSessionModel(client: harness.client)

            #expect(model.state == .signedIn(SessionFakeServer.alice))
        }
    }
#endif
