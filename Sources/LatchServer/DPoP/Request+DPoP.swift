import Foundation
import HTTPTypes
import Hummingbird

extension LatchRequest {
    /// The request as a DPoP proof must name it: its `DPoP` headers, method, and its path under each of
    /// latchd's configured public origins (`LATCH_ISSUER`, `LATCH_PUBLIC_ORIGINS`; in development also a
    /// loopback `Host`). Neither `Host` nor `X-Forwarded-Host` decides which origin that is (issue 41 §2 D1).
    var dpopPresentation: DPoPPresentation {
        DPoPPresentation(
            proofs: headers[values: .dpop], method: method.rawValue,
            uris: latch.dpop.origins.uris(path: path, host: host))
    }
}
