/// A failed attempt to hand a message to its carrier; `isTemporary` decides whether it is retried.
protocol DeliveryFailure: Error, CustomStringConvertible {
    var isTemporary: Bool { get }
}

extension SMTPError: DeliveryFailure {}
