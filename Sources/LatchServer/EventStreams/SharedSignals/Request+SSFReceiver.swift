import FluentKit
import Foundation
import Hummingbird

extension LatchRequest {
    /// The SSF service for the receiver whose key this request carries (`Authorization: Bearer KEY`, one of
    /// `LATCH_SSF_RECEIVER_KEYS` or a key an operator made in `ssf_receivers`); otherwise 401 AUTH_004.
    /// As for admin keys, a right key is never charged; wrong or missing ones are priced in the
    /// `admin_auth` bucket (429 past it), so guessing keys costs the same on both doors.
    func sharedSignalsService() async throws -> SharedSignalsService {
        let latch = self.latch
        if let presented = headers.bearerToken, presented.utf8.count <= 512 {
            let receiver: SSFReceiver? =
                if let configured = SSFReceiverKeys(latch.config.ssfReceiverKeys).receiver(presenting: presented) {
                    configured
                } else {
                    try await SSFReceiverStore().receiver(presenting: presented, on: db)
                }
            if let receiver {
                return SharedSignalsService(latch: latch, database: db, receiver: receiver, logger: logger)
            }
        }
        try chargeRateLimit(.adminAuth)
        throw LatchError.sessionExpired
    }
}
