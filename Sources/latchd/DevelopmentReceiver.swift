import Foundation
import LatchEvents

/// What `latchd events-receiver` does with one delivery, without HTTP: verifies it, and says the status to
/// answer and the line to print.
struct DevelopmentReceiver: Sendable {
    let webhook: LatchWebhook
    /// With `--jwks`: the SETs' keys; without, SETs are printed unverified.
    let keys: DevelopmentReceiverKeys?

    /// The answer to one delivery and its line.
    struct Outcome: Sendable, Equatable {
        let status: Int
        let line: String
    }

    /// Judges a delivery: a webhook (verified with the stream's secret) or an SSF push (printed unverified).
    func receive(body: Data, headers: [String: String], now: Date) async -> Outcome {
        let header = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }) { first, _ in first }
        let time = Self.time(now)
        if header["content-type"]?.lowercased().hasPrefix("application/secevent+jwt") == true {
            return await securityEventToken(body, time: time, now: now)
        }
        let id = header["webhook-id"] ?? "-"
        do {
            let event = try webhook.verify(body: body, headers: header, now: now)
            return Outcome(status: 204, line: "\(time) \(event.id) \(event.type) user=\(event.userID ?? "-") verified")
        } catch let error as LatchWebhookError {
            return Outcome(status: 401, line: "\(time) \(id) - user=- refused: \(error.code) (\(error.reason))")
        } catch {
            return Outcome(status: 401, line: "\(time) \(id) - user=- refused: \(error)")
        }
    }

    /// An SSF push (RFC 8935): 202 once verified against `--jwks` (400 refused), or without `--jwks` its
    /// claims as they are, unverified.
    private func securityEventToken(_ body: Data, time: String, now: Date) async -> Outcome {
        let token = String(decoding: body, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let payload = Self.base64URL(parts[1]),
            let claims = try? JSONSerialization.jsonObject(with: payload) as? [String: Any]
        else {
            return Outcome(status: 400, line: "\(time) - ssf user=- refused: not a JWT")
        }
        let jti = claims["jti"] as? String ?? "-"
        let events =
            (claims["events"] as? [String: Any])?.keys.sorted()
            .map { $0.split(separator: "/").last.map(String.init) ?? $0 } ?? []
        let subject = (claims["sub_id"] as? [String: Any]).flatMap { $0["sub"] ?? $0["id"] } as? String ?? "-"
        let text =
            (try? JSONSerialization.data(withJSONObject: claims, options: [.sortedKeys, .withoutEscapingSlashes]))
            .map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        let start = "\(time) \(jti) ssf:\(events.joined(separator: ",")) user=\(subject)"
        guard let keys else {
            return Outcome(
                status: 202,
                line: start + " unverified (SET signature not checked: give --jwks) claims=\(text)")
        }
        do {
            _ = try await keys.verify(token, now: now)
            return Outcome(status: 202, line: start + " verified claims=\(text)")
        } catch let error as LatchSecurityEventError {
            return Outcome(status: 400, line: start + " refused: \(error.code) (\(error.reason))")
        } catch {
            return Outcome(status: 400, line: start + " refused: the JWKS could not be read (\(error))")
        }
    }

    private static func base64URL(_ text: Substring) -> Data? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64)
    }

    private static func time(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }
}
