#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A program to give the terminal to (`Terminal.runProgram`): an editor, a pager, a shell.
///
/// ```swift
/// let editor = ExternalProgram("vi", arguments: [path])
/// let outcome = terminal.runProgram(editor)   // .exited(0) once the user quits vi
/// ```
public struct ExternalProgram: Hashable, Sendable, Codable, CustomStringConvertible {
    /// A path (with a `/`), or a name looked up in `PATH` as a shell does.
    public var executable: String
    public var arguments: [String]
    /// The program's whole environment; nil: the app's own.
    public var environment: [String: String]?

    public init(_ executable: String, arguments: [String] = [], environment: [String: String]? = nil) {
        self.executable = executable
        self.arguments = arguments
        self.environment = environment
    }

    public var description: String { ([executable] + arguments).joined(separator: " ") }

    /// The file that would run: `executable` itself when it has a `/`, else the first file of
    /// that name in `searchPath` (`PATH`; `/usr/local/bin:/usr/bin:/bin` when unset) that this
    /// process may execute. The failure says why, as a person would want to read it.
    ///
    /// ```swift
    /// ExternalProgram("vi").resolvedPath(searchPath: "/usr/bin:/bin")   // .success("/usr/bin/vi")
    /// ExternalProgram("nosuch").resolvedPath(searchPath: "/usr/bin")    // .failure("nosuch: not found")
    /// ```
    public func resolvedPath(searchPath: String? = getenv("PATH").map { String(cString: $0) }) -> Result<String, ProgramError> {
        guard !executable.isEmpty, !executable.contains("\0") else { return .failure(ProgramError(executable, "no program named")) }
        if executable.contains("/") { return Self.check(executable, name: executable) }
        let folders = (searchPath ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":", omittingEmptySubsequences: false)
        var denied = false
        for folder in folders {
            let candidate = (folder.isEmpty ? "." : String(folder)) + "/" + executable
            switch Self.check(candidate, name: executable) {
            case .success(let path): return .success(path)
            case .failure(let error): if error.reason == ProgramError.notExecutable { denied = true }
            }
        }
        return .failure(ProgramError(executable, denied ? ProgramError.notExecutable : ProgramError.notFound))
    }

    private static func check(_ path: String, name: String) -> Result<String, ProgramError> {
        var info = stat()
        guard stat(path, &info) == 0 else { return .failure(ProgramError(name, ProgramError.notFound)) }
        guard info.st_mode & S_IFMT != S_IFDIR else { return .failure(ProgramError(name, "is a folder")) }
        guard access(path, X_OK) == 0 else { return .failure(ProgramError(name, ProgramError.notExecutable)) }
        return .success(path)
    }
}

/// Why a program could not be started.
public struct ProgramError: Error, Hashable, Sendable, Codable, CustomStringConvertible {
    /// What was asked to run.
    public var program: String
    /// Why not, in a few words (`not found`, `permission denied`).
    public var reason: String

    public init(_ program: String, _ reason: String) {
        self.program = program
        self.reason = reason
    }

    package static let notFound = "not found"
    package static let notExecutable = "permission denied (not executable)"

    public var description: String { "\(program): \(reason)" }
}

/// How a program the terminal was given to ended.
public enum ProgramOutcome: Hashable, Sendable, Codable, CustomStringConvertible {
    /// It exited with this status (0: success).
    case exited(Int32)
    /// A signal ended it (SIGINT when the user pressed Ctrl-C in it, SIGKILL...).
    case signalled(Int32)
    /// It could not be started: not found, not executable. The screen never changed.
    case couldNotStart(String)

    /// Whether it exited with status 0.
    public var succeeded: Bool { self == .exited(0) }

    public var description: String {
        switch self {
        case .exited(let status): "exited with status \(status)"
        case .signalled(let signal): "ended by signal \(signal)"
        case .couldNotStart(let why): "could not start: \(why)"
        }
    }
}
