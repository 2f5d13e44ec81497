import DemoScreens
import Foundation

// `appletkit-screens`: draws the screens in README.md and Docs/*.md again from their scenes
// (`DemoScene`), so what the documents show is what the program draws, on fixtures, the same on
// every machine. `make screens` runs it from the repository's root.
//
//   appletkit-screens README.md Docs/Navigation.md ...   rewrites the files' screen blocks
//   appletkit-screens --check FILE...                      exits 1 naming a block that differs

@main
enum ScreenMaker {
    static func main() async {
        var arguments = Array(CommandLine.arguments.dropFirst())
        let check = arguments.first == "--check"
        if check { arguments.removeFirst() }
        guard !arguments.isEmpty else {
            FileHandle.standardError.write(Data("usage: appletkit-screens [--check] FILE...\n".utf8))
            exit(64)
        }
        var stale: [String] = []
        for path in arguments {
            do {
                let text = try String(contentsOfFile: path, encoding: .utf8)
                let updated = try await DocumentScreens(text: text).rendered()
                if updated == text { continue }
                if check {
                    stale.append(path)
                } else {
                    try updated.write(toFile: path, atomically: true, encoding: .utf8)
                    print("appletkit-screens: drew the screens of \(path) again")
                }
            } catch {
                FileHandle.standardError.write(Data("appletkit-screens: \(path): \(error)\n".utf8))
                exit(1)
            }
        }
        if !stale.isEmpty {
            FileHandle.standardError.write(Data("appletkit-screens: screens differ from what the program draws in \(stale.joined(separator: ", ")); run make screens\n".utf8))
            exit(1)
        }
    }
}
