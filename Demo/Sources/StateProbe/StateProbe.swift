import AppletState
import Foundation

// A program that is not a host, for the reliability suite's check that a change made just before
// the process ends is saved: it sets a StoredState and a FileState and then ends at once, by
// returning from main or by calling exit(0), without flushing by hand. Only AppletState's exit
// hook can save the change in time (the coalesced write waits 100 ms).
//
// And a SecureState, as an app keeps one, for the end-to-end tests of the desktop keyring: it goes
// where a real program's would (the keyring when one runs on the session bus, else a file).
//
//   appletkit-state-probe set <state dir> <number> return|exit
//   appletkit-state-probe get <state dir>            prints "<stored> <file>"
//   appletkit-state-probe secret-set <state dir> <text>|-    sets (- removes) the secret
//   appletkit-state-probe secret-get <state dir>     prints the secret, or "(none)"

extension Application {
    var probeStored: StoredState<Int> { storedState(initial: 0, feature: "Probe", id: "stored") }
    var probeFile: FileState<Int> { fileState(initial: 0, feature: "Probe", id: "file") }
    var probeSecret: SecureState { secureState(feature: "Probe", id: "token") }
}

@main
enum StateProbe {
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        switch (arguments.first, arguments.count) {
        case ("set", 4):
            guard let number = Int(arguments[2]), ["return", "exit"].contains(arguments[3]) else { usage() }
            Application.shared.storage = StorageConfiguration(appID: "probe", directory: arguments[1])
            Application.storedState(\.probeStored).value = number
            Application.fileState(\.probeFile).value = number
            if arguments[3] == "exit" { exit(0) }
        case ("get", 2):
            Application.shared.storage = StorageConfiguration(appID: "probe", directory: arguments[1])
            print(Application.storedState(\.probeStored).value, Application.fileState(\.probeFile).value)
        case ("secret-set", 3):
            Application.shared.storage = StorageConfiguration(appID: "probe", directory: arguments[1])
            Application.secureState(\.probeSecret).value = arguments[2] == "-" ? nil : arguments[2]
            report(Application.shared.storeIssues.value)
        case ("secret-get", 2):
            Application.shared.storage = StorageConfiguration(appID: "probe", directory: arguments[1])
            print(Application.secureState(\.probeSecret).value ?? "(none)")
            report(Application.shared.storeIssues.value)
        default:
            usage()
        }
    }

    /// Problems on stderr, and status 1 when there are any.
    static func report(_ issues: [StoreIssue]) {
        guard !issues.isEmpty else { return }
        for issue in issues { FileHandle.standardError.write(Data("appletkit-state-probe: \(issue.message)\n".utf8)) }
        exit(1)
    }

    static func usage() -> Never {
        FileHandle.standardError.write(Data("usage: appletkit-state-probe set <dir> <number> return|exit | get <dir> | secret-set <dir> <text>|- | secret-get <dir>\n".utf8))
        exit(64)
    }
}
