import Foundation

/// A spinner on standard error while the network is waited on — only when standard error is a
/// terminal; otherwise nothing is drawn.
struct Progress: Sendable {
    let terminal: Terminal

    /// Runs `work`, showing `label` with a spinner meanwhile.
    func run<T>(_ label: String, _ work: () async throws -> T) async rethrows -> T {
        guard terminal.errorIsTerminal else { return try await work() }
        let spinner = Task {
            let frames = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]
            var index = 0
            while !Task.isCancelled {
                FileHandle.standardError.write(Data("\r\(frames[index % frames.count]) \(label)".utf8))
                index += 1
                try? await Task.sleep(for: .milliseconds(80))
            }
        }
        do {
            let result = try await work()
            await stop(spinner)
            return result
        } catch {
            await stop(spinner)
            throw error
        }
    }

    private func stop(_ spinner: Task<Void, Never>) async {
        spinner.cancel()
        await spinner.value
        FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8))
    }
}
