import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A child process for tests, started with `posix_spawnp`: its stdin a pipe held open by us (EOF
/// tells the child its test has ended), its stdout and stderr on one pipe or in files.
///
/// Not `Foundation.Process`: on Linux with Swift 6.3.1 `Process.run()` intermittently crashes the
/// test runner (an over-read in `findMaximumOpenFromProcSelfFD`, swift-corelibs-foundation PR #5472,
/// reported at 1 run in 5–20 of suites that spawn processes). The child also gets an empty signal
/// mask and default SIGTERM/SIGINT/SIGPIPE handling, which it would otherwise inherit blocked from
/// the test runner. A reaper thread collects the exit status, so `isRunning` is safe from any thread.
public final class ChildProcess: Sendable {
    /// Where the child's stdout and stderr go.
    public enum Output: Sendable {
        /// Both on one pipe, read with `readLine()` / `readToEnd()`.
        case pipe
        /// Both appended to one file.
        case file(URL)
        /// Each to its own file (created or truncated).
        case files(standardOutput: URL, standardError: URL)
    }

    /// Where the child's stdin comes from.
    public enum Input: Sendable {
        /// A pipe: the child sees no terminal, as a script's commands do.
        case pipe
        /// A pseudo-terminal without echo: `isatty(0)` is true in the child, as for a person typing. What is
        /// written but not yet read is lost when the input closes: wait for the child (`exited()`) first.
        case terminal
    }

    public let pid: pid_t
    /// stdout and stderr of the child with `.pipe`; `nil` otherwise.
    public let output: FileHandle?
    private let input = Locked<Int32>(-1)
    private let exitCode = Locked<Int32?>(nil)

    public enum SpawnError: Error { case failed(Int32) }

    /// A value behind a lock (NSLock: `Mutex` needs macOS 15, the package supports macOS 14).
    private final class Locked<Value: Sendable>: @unchecked Sendable {
        private let lock = NSLock()
        private var value: Value
        init(_ value: Value) { self.value = value }
        func withLock<Result>(_ body: (inout Value) -> Result) -> Result { lock.withLock { body(&value) } }
    }

    /// Starts `arguments[0]` (searched in `PATH` when it has no slash) with `arguments`.
    /// - Parameters:
    ///   - environment: the child's whole environment (default: the test runner's).
    ///   - directory: the working directory (default: the test runner's); set through `env --chdir`.
    ///   - standardInput: a pipe (default) or a pseudo-terminal.
    public init(
        _ arguments: [String], environment: [String: String]? = nil, directory: URL? = nil, output: Output = .pipe,
        standardInput: Input = .pipe
    ) throws {
        let arguments = directory.map { ["env", "--chdir=\($0.path)"] + arguments } ?? arguments
        var outputPipe: [Int32] = [-1, -1], inputPipe: [Int32] = [0, 0]
        switch standardInput {
        case .pipe: guard pipe(&inputPipe) == 0 else { throw SpawnError.failed(errno) }
        case .terminal: inputPipe = try Self.openTerminal()
        }
        if case .pipe = output, pipe(&outputPipe) != 0 { throw SpawnError.failed(errno) }
        for fd in outputPipe + inputPipe where fd >= 0 { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, inputPipe[0], 0)
        switch output {
        case .pipe:
            posix_spawn_file_actions_adddup2(&actions, outputPipe[1], 1)
            posix_spawn_file_actions_adddup2(&actions, outputPipe[1], 2)
        case .file(let url):
            posix_spawn_file_actions_addopen(&actions, 1, url.path, O_WRONLY | O_CREAT | O_APPEND, 0o644)
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
        case .files(let standardOutput, let standardError):
            posix_spawn_file_actions_addopen(&actions, 1, standardOutput.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            posix_spawn_file_actions_addopen(&actions, 2, standardError.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        }

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
        if outputPipe[1] >= 0 { close(outputPipe[1]) }
        close(inputPipe[0])
        guard status == 0 else {
            if outputPipe[0] >= 0 { close(outputPipe[0]) }
            close(inputPipe[1])
            throw SpawnError.failed(status)
        }
        self.pid = pid
        self.output = outputPipe[0] >= 0 ? FileHandle(fileDescriptor: outputPipe[0], closeOnDealloc: true) : nil
        input.withLock { $0 = inputPipe[1] }
        let exitCode = exitCode
        let child = pid
        Thread.detachNewThread {
            var status: Int32 = 0
            while waitpid(child, &status, 0) == -1 && errno == EINTR {}
            let signal = status & 0x7F
            exitCode.withLock { $0 = signal == 0 ? (status >> 8) & 0xFF : 128 + signal }
        }
    }

    deinit {
        closeInput()
    }

    /// A pseudo-terminal with echo off: `[the terminal's end (the child's stdin), our end]`.
    private static func openTerminal() throws -> [Int32] {
        let pty = try PseudoTerminalCalls()
        let ours = pty.open(O_RDWR | O_NOCTTY)
        guard ours >= 0 else { throw SpawnError.failed(errno) }
        guard pty.grant(ours) == 0, pty.unlock(ours) == 0, let name = pty.name(ours) else {
            let failure = errno
            close(ours)
            throw SpawnError.failed(failure)
        }
        let theirs = open(name, O_RDWR | O_NOCTTY)
        guard theirs >= 0 else {
            let failure = errno
            close(ours)
            throw SpawnError.failed(failure)
        }
        // No echo: what the test writes is not read back on our end, where nobody reads it.
        var settings = termios()
        if tcgetattr(theirs, &settings) == 0 {
            settings.c_lflag &= ~tcflag_t(ECHO)
            tcsetattr(theirs, TCSANOW, &settings)
        }
        return [theirs, ours]
    }

    /// Whether the child has not ended yet.
    public var isRunning: Bool { exitCode.withLock { $0 == nil } }

    /// The exit status (128 + signal when killed), once the child ended.
    public var exitStatus: Int32? { exitCode.withLock { $0 } }

    /// Writes `text` to the child's stdin.
    public func write(_ text: String) {
        let fd = input.withLock { $0 }
        guard fd >= 0 else { return }
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Self.systemWrite(fd, $0.baseAddress, $0.count) }
            if written < 0 { if errno == EINTR { continue } else { return } }
            offset += written
        }
    }

    private static func systemWrite(_ fd: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int {
        #if canImport(Glibc)
            Glibc.write(fd, bytes, count)
        #else
            Darwin.write(fd, bytes, count)
        #endif
    }

    /// Closes the child's stdin (it reads end of file).
    public func closeInput() {
        input.withLock { fd in
            if fd >= 0 { close(fd) }
            fd = -1
        }
    }

    /// Reads one line of output (without its newline); nil at end of output.
    public func readLine() -> String? {
        guard let output else { return nil }
        var bytes: [UInt8] = []
        while true {
            guard let byte = output.readData(ofLength: 1).first else {
                return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self)
            }
            if byte == UInt8(ascii: "\n") { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(byte)
        }
    }

    /// Reads all remaining output.
    public func readToEnd() -> String { String(decoding: output?.readDataToEndOfFile() ?? Data(), as: UTF8.self) }

    /// Waits for the child to end; returns its exit status (128 + signal when killed).
    @discardableResult
    public func wait() -> Int32 {
        closeInput()
        while true {
            if let status = exitStatus { return status }
            usleep(5_000)
        }
    }

    /// Waits for the child to end without blocking a thread; returns its exit status.
    public func exited() async -> Int32 {
        while true {
            if let status = exitStatus { return status }
            try? await Task.sleep(for: .milliseconds(10))
        }
    }

    /// Asks the child to end (SIGTERM).
    public func terminate() {
        if isRunning { kill(pid, SIGTERM) }
    }

    /// Kills the child (SIGKILL) and waits for it.
    public func stop() {
        if isRunning { kill(pid, SIGKILL) }
        wait()
    }
}

/// `posix_openpt`, `grantpt`, `unlockpt` and `ptsname`: in every libc, but Swift's Glibc module leaves them
/// out (glibc declares them only with `_XOPEN_SOURCE`), so on Linux they are looked up by name.
private struct PseudoTerminalCalls {
    let open: @convention(c) (Int32) -> Int32
    let grant: @convention(c) (Int32) -> Int32
    let unlock: @convention(c) (Int32) -> Int32
    let name: @convention(c) (Int32) -> UnsafeMutablePointer<CChar>?

    init() throws {
        #if canImport(Darwin)
            open = { posix_openpt($0) }
            grant = { grantpt($0) }
            unlock = { unlockpt($0) }
            name = { ptsname($0) }
        #else
            let process = dlopen(nil, RTLD_NOW)
            func lookUp<Function>(_ symbol: String, as type: Function.Type) throws -> Function {
                guard let address = dlsym(process, symbol) else { throw ChildProcess.SpawnError.failed(ENOSYS) }
                return unsafeBitCast(address, to: type)
            }
            open = try lookUp("posix_openpt", as: (@convention(c) (Int32) -> Int32).self)
            grant = try lookUp("grantpt", as: (@convention(c) (Int32) -> Int32).self)
            unlock = try lookUp("unlockpt", as: (@convention(c) (Int32) -> Int32).self)
            name = try lookUp("ptsname", as: (@convention(c) (Int32) -> UnsafeMutablePointer<CChar>?).self)
        #endif
    }
}
