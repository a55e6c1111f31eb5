import CoreMetrics
import FluentKit
import Logging
import NIOPosix
import ServiceLifecycle

/// Chooses each channel's carrier from the configuration and stops their queues with the app.
///
/// | channel | configured | development, not configured | production, not configured |
/// |---|---|---|---|
/// | mail | SMTP (`LATCH_SMTP_URL`, `LATCH_MAIL_FROM`) | development outbox | cannot start (required) |
/// | sms | webhook (`LATCH_SMS_WEBHOOK_URL`) | development outbox | logged as not sent |
/// | push | APNs (`LATCH_APNS_*`, issue 43 §2) | none queued | none queued |
enum MessageDeliverySetup {
    /// The messages' delivery (routed by channel) and the approval pushes' queue (nil without APNs).
    struct Deliveries: Sendable {
        let messages: any MessageDelivery
        let pushes: APNsPushQueue?
    }

    /// The configured carriers' messages go through the durable queue (`delivery_jobs`, sent by a
    /// `DeliveryWorker` started here unless `config.runsBackgroundTasks` is off); the development
    /// outbox and the unconfigured channel take theirs at once, in memory.
    /// `providerTokenClock` ages the APNs provider token (the app's injected clock).
    static func deliveries(
        for config: LatchConfig, outbox: DevelopmentOutbox?, secrets: SecretBox,
        database: @escaping @Sendable () -> any Database, metrics latchMetrics: LatchMetrics, logger: Logger,
        addService: (any Service, String) -> Void, clock: LatchClock = .system,
        providerTokenClock: LatchClock = .system
    ) throws -> Deliveries {
        var carriers: [DeliveryCarrier] = []
        let mailPayload: (@Sendable (OutgoingMessage) -> DeliveryJobPayload)?
        if let smtpURL = config.smtpURL {
            let smtp = try SMTPConfiguration(url: smtpURL)
            guard let sender = config.mailFrom else {
                throw ConfigurationError(
                    "LATCH_MAIL_FROM", "is required with LATCH_SMTP_URL (the sender, e.g. latch@example.com)")
            }
            switch smtp.security {
            case .startTLSRequired:
                logger.notice("mail over \(smtp): STARTTLS required (a server without it fails each mail)")
            case .implicitTLS:
                logger.notice("mail over \(smtp): TLS from the first byte")
            case .startTLSWhenOffered where !smtp.isLoopback:
                logger.warning(
                    "mail over \(smtp): may travel unencrypted (smtp+insecure://); STARTTLS only when offered")
            case .startTLSWhenOffered:
                logger.notice("mail over \(smtp): loopback, STARTTLS when offered")
            }
            let client = try SMTPClient(configuration: smtp)
            let from = try MailAddress(parsing: sender)
            carriers.append(
                DeliveryCarrier(channel: OutgoingMessage.emailChannel) { payload in
                    switch payload {
                    case .mail(let from, let recipients, let message, let clientName):
                        try await client.send(
                            SMTPEnvelope(from: from, recipients: recipients, message: message, clientName: clientName))
                    case .sms, .push:
                        throw DeliveryCarrier.WrongPayload(channel: OutgoingMessage.emailChannel)
                    }
                })
            mailPayload = { DeliveryJobPayload(SMTPMailDelivery.envelope(for: $0, from: from)) }
        } else {
            mailPayload = nil
        }

        let smsPayload: (@Sendable (OutgoingMessage) -> DeliveryJobPayload)?
        if let webhook = config.smsWebhookURL {
            try LatchConfig.validateWebhook(webhook)
            let (url, http) = (webhook, OutboundHTTP.shared)
            carriers.append(
                DeliveryCarrier(channel: OutgoingMessage.smsChannel) { payload in
                    switch payload {
                    case .sms(let to, let text):
                        try await SMSWebhookDelivery.post(
                            to: to, text: text, url: url, http: http, timeout: .seconds(15))
                    case .mail, .push:
                        throw DeliveryCarrier.WrongPayload(channel: OutgoingMessage.smsChannel)
                    }
                })
            smsPayload = { .sms(to: $0.to, text: $0.body) }
        } else {
            smsPayload = nil
        }

        if let apns = config.apns {
            logger.notice(
                "approval pushes over APNs: \(apns.host) (production tokens), \(apns.sandboxHost) (development tokens)")
            let sender = try APNsSender(settings: apns, clock: providerTokenClock, database: database)
            carriers.append(
                DeliveryCarrier(channel: APNsPushQueue.channel) { payload in
                    switch payload {
                    case .push(let push): try await sender.send(push)
                    case .mail, .sms: throw DeliveryCarrier.WrongPayload(channel: APNsPushQueue.channel)
                    }
                })
        }

        let store = DeliveryJobStore(
            secrets: secrets, capacity: config.deliveryQueueCapacity, kind: config.database.kind)
        // Metrics (issue 12 §3): sent / retried / failed by the worker, refused at the queue, and each
        // channel's depth (its rows in `delivery_jobs`, on every instance) read at each scrape.
        var metrics: [String: DeliveryMetrics] = [:]
        for channel in carriers.map(\.channel) {
            metrics[channel] = DeliveryMetrics(channel: channel, metrics: latchMetrics)
            let depth = latchMetrics.gauge("latch_delivery_queue_depth", [("channel", channel)])
            latchMetrics.sampleBeforeScrape {
                if let jobs = try? await store.backlog(channel: channel, on: database()) { depth.record(jobs) }
            }
        }
        let worker = DeliveryWorker(
            store: store, database: database, carriers: carriers, policy: config.deliveryRetry,
            lease: config.deliveryLease,
            pollInterval: config.deliveryPollInterval, clock: clock, logger: logger, metrics: metrics)
        if !carriers.isEmpty, config.runsBackgroundTasks {
            addService(worker, "delivery worker")
        }
        func durable(
            _ payload: (@Sendable (OutgoingMessage) -> DeliveryJobPayload)?, channel: String, variable: String
        ) -> any MessageDelivery {
            if let payload {
                var delivery = DurableDelivery(
                    store: store, worker: worker, database: database, clock: clock, payload: payload)
                delivery.metrics = metrics[channel] ?? .disabled
                return delivery
            }
            return outbox ?? UnconfiguredDelivery(logger: logger, variable: variable)
        }
        let messages = ChannelRouter(
            mail: durable(mailPayload, channel: OutgoingMessage.emailChannel, variable: "LATCH_SMTP_URL"),
            sms: durable(smsPayload, channel: OutgoingMessage.smsChannel, variable: "LATCH_SMS_WEBHOOK_URL"))
        let pushes = config.apns.map { _ in APNsPushQueue(store: store, worker: worker, clock: clock) }
        return Deliveries(messages: messages, pushes: pushes)
    }
}
