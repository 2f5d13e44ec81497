import AppletGenerator
import Foundation
import Testing

@Suite("New applet package")
struct AppletPackageTemplateTests {
    @Test func namesFollowTheExampleApplets() throws {
        let t = try AppletPackageTemplate(name: "DiskUsage", framework: .path("/src/AppletKit"))
        #expect(t.packageName == "DiskUsageApplet")
        #expect(t.interfaceTarget == "DiskUsageAppletInterface")
        #expect(t.hostTarget == "DiskUsageHost")
        #expect(t.testTarget == "DiskUsageAppletTests")
        #expect(t.executable == "disk-usage")
        #expect(t.stateProperty == "diskUsage")
        #expect(try AppletPackageTemplate(name: "NotesApplet", framework: .path("/x")).name == "Notes")
        #expect(try AppletPackageTemplate(name: "URLTool", framework: .path("/x")).stateProperty == "urlTool")
    }

    @Test(arguments: ["notes", "2fa", "My-Notes", "Notes App", "", "Applet", "State", "Widget", "Stored", "Ünicode"])
    func unusableNamesAreRefused(_ name: String) {
        #expect(throws: AppletPackageTemplate.NameError.self) { try AppletPackageTemplate(name: name, framework: .path("/x")) }
    }

    @Test func theDependencyLineNamesTheFrameworkAsAsked() throws {
        let byURL = try AppletPackageTemplate(name: "Notes", framework: .url("file:///tmp/clone/AppletKit.git", from: "0.1.0"))
        let manifest = try #require(byURL.files.first { $0.path == "Package.swift" }).contents
        #expect(manifest.contains(".package(url: \"file:///tmp/clone/AppletKit.git\", from: \"0.1.0\")"))
        #expect(manifest.contains(".product(name: \"AppletKit\", package: \"AppletKit\")"))
        let byPath = try AppletPackageTemplate(name: "Notes", framework: .path("/src/kit"))
        #expect(byPath.files[0].contents.contains(".package(name: \"AppletKit\", path: \"/src/kit\")"))
    }

    /// The host may declare options of its own at once (Docs/AppOptions.md): ArgumentParser is a
    /// declared dependency of its target, not one seen only through AppletKit's.
    @Test func theHostTargetDeclaresArgumentParser() throws {
        let template = try AppletPackageTemplate(name: "Notes", framework: .path("/src/kit"))
        let manifest = try #require(template.files.first { $0.path == "Package.swift" }).contents
        #expect(manifest.contains(".package(url: \"https://github.com/apple/swift-argument-parser\", from: \"1.5.0\")"))
        let host = try #require(manifest.range(of: ".executableTarget(name: \"NotesHost\""))
        let hostTarget = manifest[host.lowerBound...].prefix { $0 != "]" }
        #expect(hostTarget.contains(".product(name: \"ArgumentParser\", package: \"swift-argument-parser\")"), "\(manifest)")
    }

    /// No file points at a place that does not exist (the old placeholder URL did).
    @Test func noFileLinksToAPlaceholder() throws {
        let template = try AppletPackageTemplate(name: "Notes", framework: .path("/src/kit"))
        for file in template.files {
            #expect(!file.contents.contains("github.com/appletkit"), "\(file.path)")
        }
    }

    @Test func writesEveryFileAndRefusesAFolderThatIsNotEmpty() throws {
        let parent = FileManager.default.temporaryDirectory.appendingPathComponent("new-applet-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: parent) }
        let template = try AppletPackageTemplate(name: "Notes", framework: .path("/src/kit"))
        let folder = try template.write(into: parent)
        #expect(folder.lastPathComponent == "NotesApplet")
        for file in template.files {
            #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent(file.path).path), "\(file.path)")
        }
        #expect(throws: AppletPackageTemplate.NameError.self) { try template.write(into: parent) }
    }
}
