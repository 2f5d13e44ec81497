import AppletState
import Foundation

// A program that is not a host, for the reliability suite's check that a change made just before
// the process ends is saved: it sets a StoredState and a FileState and then ends at once, by
// returning from main or by calling exit(0), without flushing by hand. Only AppletState's exit
// hook can save the change in time (the coalesced write waits 100 ms).
//
//   appletkit-state-probe set <state dir> <number> return|exit
//   appletkit-state-probe get <state dir>            prints "<stored> <file>"

extension Application {
    var probeStored: StoredState<Int> { storedState(initial: 0, feature: "Probe", id: "stored") }
    var probeFile: FileState<Int> { fileState(initial: 0, feature: "Probe", id: "file") }
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
        default:
            usage()
        }
    }

    static func usage() -> Never {
        FileHandle.standardError.write(Data("usage: appletkit-state-probe set <dir> <number> return|exit | get <dir>\n".utf8))
        exit(64)
    }
}
