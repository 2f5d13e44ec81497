import AppletGenerator
import ArgumentParser
import Foundation

/// `appletkit new-applet Notes`: a new applet package that builds, runs and passes its test as written.
struct NewAppletCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "new-applet",
        abstract: "Create a new applet package: the applet, its Interface target, a host to run it and a test.",
        discussion: """
            The package depends on AppletKit by path (the checkout this appletkit was built from) unless
            --framework-url or --framework-path says otherwise. Then: cd into it, `swift run` to see the
            applet, `swift test` to run its test.
            """
    )

    @Argument(help: ArgumentHelp("The applet's name, a Swift type name such as Notes or DiskUsage.", valueName: "name"))
    var name: String

    @Option(name: .long, help: ArgumentHelp("The folder to create the package in (default: the current folder).", valueName: "dir"))
    var path: String = "."

    @Option(name: .long, help: ArgumentHelp("Depend on AppletKit by this git URL (with --from) instead of a path.", valueName: "url"))
    var frameworkURL: String?

    @Option(name: .long, help: ArgumentHelp("The lowest AppletKit version to accept with --framework-url.", valueName: "version"))
    var from: String = "0.1.0"

    @Option(name: .long, help: ArgumentHelp("Depend on the AppletKit checkout at this path.", valueName: "path"))
    var frameworkPath: String?

    mutating func validate() throws {
        if frameworkURL != nil, frameworkPath != nil {
            throw ValidationError("use --framework-url or --framework-path, not both")
        }
    }

    func run() throws {
        let framework: AppletPackageTemplate.Framework
        if let frameworkURL {
            framework = .url(frameworkURL, from: from)
        } else if let frameworkPath {
            framework = .path(Self.absolute(frameworkPath))
        } else if let checkout = FrameworkCheckout.builtFrom {
            framework = .path(checkout)
        } else {
            throw ValidationError("cannot tell where AppletKit is; pass --framework-url <git url> or --framework-path <checkout>")
        }
        let template: AppletPackageTemplate
        do {
            template = try AppletPackageTemplate(name: name, framework: framework)
        } catch let error as AppletPackageTemplate.NameError {
            throw ValidationError(error.description)
        }
        let parent = URL(fileURLWithPath: Self.absolute(path))
        let folder: URL
        do {
            folder = try template.write(into: parent)
        } catch let error as AppletPackageTemplate.NameError {
            throw ValidationError(error.description)
        }
        print("Created \(template.packageName) in \(folder.path):")
        for file in template.files { print("  \(file.path)") }
        print("""
            Next:
              cd \(folder.path)
              swift run \(template.executable)    # the applet full screen (q quits)
              swift test     # its headless test
            """)
    }

    static func absolute(_ path: String) -> String {
        let url = URL(fileURLWithPath: path, relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
        return url.standardizedFileURL.path
    }
}

/// The AppletKit checkout this binary was built from, when it is still there.
enum FrameworkCheckout {
    static var builtFrom: String? {
        // Demo/Sources/AppletKitDemo/NewAppletCommand.swift -> the repository root.
        let root = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let fileManager = FileManager.default
        guard fileManager.fileExists(atPath: root.appendingPathComponent("Package.swift").path),
              fileManager.fileExists(atPath: root.appendingPathComponent("Sources/AppletKit").path) else { return nil }
        return root.path
    }
}
