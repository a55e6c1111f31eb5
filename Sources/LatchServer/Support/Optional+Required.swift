/// Presence checks for the edges that parse a request body into its variant (`Grant`, `Answer`).
extension Optional {
    /// The value, or 400 `VALIDATION_FAILED` `missing` naming `field`.
    func required(_ field: String) throws -> Wrapped {
        guard let self else { throw LatchError.missing(field) }
        return self
    }
}

extension Optional where Wrapped == String {
    /// The string, or 400 `missing` naming `field` when it is absent or empty.
    func requiredNonEmpty(_ field: String) throws -> String {
        guard let self, !self.isEmpty else { throw LatchError.missing(field) }
        return self
    }
}
