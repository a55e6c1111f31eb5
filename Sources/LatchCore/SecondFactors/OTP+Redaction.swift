// Printing, interpolating or dumping a generator must never reveal its secret.

extension TOTP: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String {
        "TOTP(algorithm: \(algorithm.rawValue), digits: \(digits), period: \(period), secret: <redacted>)"
    }

    public var debugDescription: String { description }

    public var customMirror: Mirror {
        Mirror(self, children: ["algorithm": algorithm, "digits": digits, "period": period], displayStyle: .struct)
    }
}

extension HOTP: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String {
        "HOTP(algorithm: \(algorithm.rawValue), digits: \(digits), secret: <redacted>)"
    }

    public var debugDescription: String { description }

    public var customMirror: Mirror {
        Mirror(self, children: ["algorithm": algorithm, "digits": digits], displayStyle: .struct)
    }
}
