internal import CNcursesShim
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TerminalCore

/// Starts programs with `posix_spawn` (never `fork` in Swift) and waits for them.
public enum ProgramLauncher {
    /// Runs `program` from `path` and waits for it to end.
    ///
    /// With `terminal` (the descriptor of the controlling terminal, stdin), as a shell runs a job
    /// in the foreground: the program gets a process group of its own, made the terminal's
    /// foreground group before it starts (so `Ctrl-C` and `Ctrl-Z` reach it, not the app), every
    /// signal at its default and none blocked, the terminal's own stderr (the app's goes to its
    /// log while the UI is up), and no other descriptor of the app. If the user stops it
    /// (`Ctrl-Z`), the app stops too, as a shell's job does, and `fg` continues both. When it
    /// ends, the app's process group gets the terminal back. The caller has given the terminal
    /// back first (its modes reset, termios restored) and takes it again after.
    ///
    /// Without `terminal`: a plain child in the app's process group.
    public static func run(_ program: ExternalProgram, path: String, terminal: Int32? = nil) -> ProgramOutcome {
        var argv: [UnsafeMutablePointer<CChar>?] = ([program.executable] + program.arguments).map { strdup($0) }
        argv.append(nil)
        var envp: [UnsafeMutablePointer<CChar>?]? = program.environment.map { environment in
            environment.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") } + [nil]
        }
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp ?? [] { free(pointer) }
        }
        var status: Int32 = 0
        let error: Int32 = argv.withUnsafeMutableBufferPointer { args in
            if envp != nil {
                return envp!.withUnsafeMutableBufferPointer { env in
                    ak_run_foreground(path, args.baseAddress, env.baseAddress, terminal ?? -1, &status)
                }
            }
            return ak_run_foreground(path, args.baseAddress, nil, terminal ?? -1, &status)
        }
        guard error == 0 else {
            let reason: String = switch error {
            case ENOENT: ProgramError.notFound
            case EACCES, EPERM: ProgramError.notExecutable
            case ENOEXEC: "not a program this system can run"
            default: String(cString: strerror(error))
            }
            return .couldNotStart(ProgramError(program.executable, reason).description)
        }
        // The wait status, decoded as the W* macros do (they are macros Swift cannot import).
        let signal = status & 0x7F
        if signal == 0 { return .exited((status >> 8) & 0xFF) }
        return .signalled(signal)
    }
}
