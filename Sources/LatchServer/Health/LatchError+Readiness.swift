import HTTPTypes
import LatchCore

extension LatchError {
    /// 503 INTERNAL_ERROR (`reasons` `["database_unreachable"]`, `retry_after` 5): `GET /health/ready`
    /// could not reach the database.
    static let databaseUnreachable = LatchError(
        .internalError, status: .serviceUnavailable, reasons: ["database_unreachable"], retryAfter: 5)
}
