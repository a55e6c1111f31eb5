import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A child process started with `posix_spawnp`, its stdout and stderr on one pipe, its stdin a pipe
/// held open by us (EOF tells the child its test has ended).
///
/// Not `Foundation.Process`: on Linux with Swift 6.3.1 `Process.run()` intermittently crashes
/// (an over-read in `findMaximumOpenFromProcSelfFD`, swift-corelibs-foundation PR #5472), and the
/// delivery tests start a process each. The child also gets an empty signal mask and default
/// SIGTERM/SIGINT/SIGPIPE handling, which it would otherwise inherit blocked from the test runner.
final class ChildProcess: Sendable {
    let pid: pid_t
    /// stdout and stderr of the child, merged.
    let output: FileHandle
    private let input: Int32

    enum SpawnError: Error { case failed(Int32) }

    init(_ arguments: [String], environment: [String: String]? = nil) throws {
        var outputPipe: [Int32] = [0, 0], inputPipe: [Int32] = [0, 0]
        guard pipe(&outputPipe) == 0, pipe(&inputPipe) == 0 else { throw SpawnError.failed(errno) }
        for fd in outputPipe + inputPipe { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, inputPipe[0], 0)
        posix_spawn_file_actions_adddup2(&actions, outputPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, outputPipe[1], 2)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGTERM, SIGINT, SIGPIPE] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let environment = environment ?? ProcessInfo.processInfo.environment
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        var pid: pid_t = 0
        let status = posix_spawnp(&pid, arguments[0], &actions, &attributes, argv, envp)
        close(outputPipe[1])
        close(inputPipe[0])
        guard status == 0 else {
            close(outputPipe[0])
            close(inputPipe[1])
            throw SpawnError.failed(status)
        }
        self.pid = pid
        self.output = FileHandle(fileDescriptor: outputPipe[0], closeOnDealloc: true)
        self.input = inputPipe[1]
    }

    /// Reads one line of output (without its newline); nil at end of output.
    func readLine() -> String? {
        var bytes: [UInt8] = []
        while true {
            guard let byte = output.readData(ofLength: 1).first else { return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self) }
            if byte == UInt8(ascii: "\n") { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(byte)
        }
    }

    /// Reads all remaining output.
    func readToEnd() -> String { String(decoding: output.readDataToEndOfFile(), as: UTF8.self) }

    /// Waits for the child to end; returns its exit status (128 + signal when killed).
    @discardableResult
    func wait() -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        close(input)
        let signal = status & 0x7F
        return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
    }

    /// Kills the child (SIGKILL) and waits for it.
    func stop() {
        kill(pid, SIGKILL)
        wait()
    }
}
