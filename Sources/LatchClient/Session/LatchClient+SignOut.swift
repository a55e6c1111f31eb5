import Foundation
import LatchCore

extension LatchClient {
    /// Signs out (C9): the session ends here at once (tokens deleted from the vault, in-flight refreshes
    /// cancelled and discarded, `state` moves to `.signedOut`, announced once), then the server is told
    /// (`POST /v1/logout`; a failure there is ignored), then `clearAppData` runs for the app's own
    /// signed-in data. Other vault items (settings, the installation id, device keys) are kept; the
    /// session's DPoP key is discarded.
    public func signOut(clearAppData: (@Sendable () async -> Void)? = nil) async {
        if let ended = await coordinator.signOut() {
            await endOnServer(ended)
        }
        // The session's DPoP key goes with it (issue 31 §3), after the server was told with its last proof.
        try? await api.dpop?.discard()
        await clearAppData?()
    }

    /// Best effort: `POST /v1/logout` with the ended session's token, refreshed once if it was refused.
    func endOnServer(_ ended: StoredSession) async {
        do {
            try await api.logout(accessToken: ended.accessToken)
        } catch let error as LatchClientError where error.isSessionExpired {
            guard let tokens = try? await api.refreshGrant(refreshToken: ended.refreshToken) else { return }
            try? await api.logout(accessToken: tokens.accessToken)
        } catch {
            // Offline or server trouble: the session is over here; the server's ends with its refresh token.
        }
    }
}
