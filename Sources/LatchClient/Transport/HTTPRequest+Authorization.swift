extension HTTPRequest {
    /// This request with `Authorization: Bearer token`.
    func authorized(with token: String) -> HTTPRequest {
        var request = self
        request.headers = request.headers.filter { $0.key.lowercased() != "authorization" }
        request.headers["Authorization"] = "Bearer \(token)"
        return request
    }
}
