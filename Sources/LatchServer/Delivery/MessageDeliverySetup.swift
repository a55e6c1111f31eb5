import NIOPosix
import Vapor

/// Chooses each channel's carrier from the configuration and stops their queues with the app.
///
/// | channel | configured | development, not configured | production, not configured |
/// |---|---|---|---|
/// | mail | SMTP (`LATCH_SMTP_URL`, `LATCH_MAIL_FROM`) | development outbox | cannot start (required) |
/// | sms | webhook (`LATCH_SMS_WEBHOOK_URL`) | development outbox | logged as not sent |
enum MessageDeliverySetup {
    static func delivery(
        for config: LatchConfig, outbox: DevelopmentOutbox?, on app: Application, retry: RetryPolicy = .standard
    ) throws -> any MessageDelivery {
        let mail: any MessageDelivery
        if let smtpURL = config.smtpURL {
            let smtp = try SMTPConfiguration(url: smtpURL)
            guard let sender = config.mailFrom else {
                throw ConfigurationError("LATCH_MAIL_FROM", "is required with LATCH_SMTP_URL (the sender, e.g. latch@example.com)")
            }
            switch smtp.security {
            case .startTLSRequired:
                app.logger.notice("mail over \(smtp): STARTTLS required (a server without it fails each mail)")
            case .implicitTLS:
                app.logger.notice("mail over \(smtp): TLS from the first byte")
            case .startTLSWhenOffered where !smtp.isLoopback:
                app.logger.warning("mail over \(smtp): may travel unencrypted (smtp+insecure://); STARTTLS only when offered")
            case .startTLSWhenOffered:
                app.logger.notice("mail over \(smtp): loopback, STARTTLS when offered")
            }
            let queue = DeliveryQueue(
                channel: "mail", policy: retry, logger: app.logger, capacity: config.deliveryQueueCapacity,
                metrics: DeliveryMetrics(channel: "mail", metrics: app.latchMetrics))
            DeliveryMetrics.sampleDepth(of: queue, channel: "mail", metrics: app.latchMetrics)
            app.lifecycle.use(DeliveryQueueShutdown(queue: queue))
            mail = SMTPMailDelivery(client: try SMTPClient(configuration: smtp), from: try MailAddress(parsing: sender), queue: queue)
        } else {
            mail = outbox ?? UnconfiguredDelivery(logger: app.logger, variable: "LATCH_SMTP_URL")
        }

        let sms: any MessageDelivery
        if let webhook = config.smsWebhookURL {
            try LatchConfig.validateWebhook(webhook)
            let queue = DeliveryQueue(
                channel: "sms", policy: retry, logger: app.logger, capacity: config.deliveryQueueCapacity,
                metrics: DeliveryMetrics(channel: "sms", metrics: app.latchMetrics))
            DeliveryMetrics.sampleDepth(of: queue, channel: "sms", metrics: app.latchMetrics)
            app.lifecycle.use(DeliveryQueueShutdown(queue: queue))
            sms = SMSWebhookDelivery(url: URI(string: webhook), client: app.client, queue: queue)
        } else {
            sms = outbox ?? UnconfiguredDelivery(logger: app.logger, variable: "LATCH_SMS_WEBHOOK_URL")
        }
        return ChannelRouter(mail: mail, sms: sms)
    }
}
