extension HTTPResponse {
    /// The value of header `name`, matched case-insensitively.
    public func header(_ name: String) -> String? {
        if let value = headers[name] { return value }
        let lowered = name.lowercased()
        return headers.first { $0.key.lowercased() == lowered }?.value
    }
}
