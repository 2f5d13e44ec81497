import Foundation

/// Where the built `appletkit` is.
///
/// `APPLETKIT_BINARY` wins when set. Otherwise the newest `debug/appletkit` under the repository's
/// `.build` or any other `.build*` scratch folder (`swift build --scratch-path .build-x`). The tests
/// never build it themselves: `make test` runs `swift build` first.
enum AppBinary {
    /// The repository root: the nearest folder above this file that holds `Package.swift`.
    static let repositoryRoot: URL = {
        var url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while url.path != "/" {
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url }
            url.deleteLastPathComponent()
        }
        // Tests/EndToEndTests/Support/AppBinary.swift -> three levels up.
        return URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }()

    private static let located: Result<String, HarnessError> = locate()

    /// The binary's absolute path, or an error explaining how to get one.
    static func path() throws -> String { try located.get() }

    private static func locate() -> Result<String, HarnessError> {
        let fileManager = FileManager.default
        if let given = ProcessInfo.processInfo.environment["APPLETKIT_BINARY"], !given.isEmpty {
            let url = URL(fileURLWithPath: given, relativeTo: repositoryRoot).standardizedFileURL
            guard fileManager.isExecutableFile(atPath: url.path) else {
                return .failure(HarnessError("APPLETKIT_BINARY=\(given) is not an executable file (resolved to \(url.path)); build it with `swift build` or unset APPLETKIT_BINARY"))
            }
            return .success(url.path)
        }
        let root = repositoryRoot
        var folders = [".build"]
        let entries = (try? fileManager.contentsOfDirectory(atPath: root.path)) ?? []
        folders += entries.filter { $0.hasPrefix(".build") && $0 != ".build" }.sorted()
        var candidates: [(path: String, modified: Date)] = []
        for folder in folders {
            let path = root.appendingPathComponent(folder).appendingPathComponent("debug/appletkit").path
            guard fileManager.isExecutableFile(atPath: path) else { continue }
            let modified = (try? fileManager.attributesOfItem(atPath: path)[.modificationDate] as? Date) ?? .distantPast
            candidates.append((path, modified))
        }
        guard let newest = candidates.max(by: { $0.modified < $1.modified }) else {
            return .failure(HarnessError("""
                The appletkit binary was not found: looked for .build/debug/appletkit and .build*/debug/appletkit \
                under \(root.path). Run `swift build` first (the Makefile's `make test` does), \
                or point APPLETKIT_BINARY at a built appletkit.
                """))
        }
        return .success(newest.path)
    }
}
