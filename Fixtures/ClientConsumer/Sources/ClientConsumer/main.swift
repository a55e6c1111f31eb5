import Foundation
import LatchClient

// Compiles against the SDK's public API only (a client with an in-memory vault), without any server
// package in the build.
let client = LatchClient(serverURL: URL(string: "https://auth.example.com")!, vault: InMemoryVault())
print("LatchClient for \(client.api.serverURL.absoluteString): \(client.currentState)")
