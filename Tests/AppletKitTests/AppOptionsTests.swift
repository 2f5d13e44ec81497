import ArgumentParser
import Testing
@testable import AppletKit

/// An app with options of its own, one of them required (Docs/AppOptions.md).
struct RequiredFileOptions: ParsableArguments, Sendable {
    @Option(help: "The file to open.")
    var file: String

    @Flag(help: "Open it read-only.")
    var readOnly = false
}

struct RequiredOptionApp: AppletApp {
    static let id = "required-option-app"
    var options = RequiredFileOptions()
    var tabs: [Tab] { [Tab("Main", view: Text("main"))] }
}

/// What `main()` parses the command line into when the app has options of its own.
@Suite("An app's own command-line options")
struct AppOptionsTests {
    typealias AppCommand = AppletAppCommand<RequiredOptionApp>

    @Test func theTabsRunWithTheOptionsGiven() throws {
        let command = try #require(try AppCommand.parseCommandLine(["--file", "notes.txt", "--read-only", "--tab", "1"]) as? AppCommand)
        #expect(command.options.file == "notes.txt")
        #expect(command.options.readOnly)
        #expect(command.standard.tab == "1")
    }

    @Test func aRequiredOptionIsRequiredToRunTheTabs() {
        #expect {
            try AppCommand.parseCommandLine(["--tab", "1"])
        } throws: { error in
            AppCommand.fullMessage(for: error).contains("Missing expected argument '--file <file>'")
                && AppCommand.exitCode(for: error) == .validationFailure
        }
    }

    /// The built-in `keys` was refused before: the root command's required option was missing.
    @Test func keysRunsWithoutTheAppsRequiredOptions() throws {
        let command = try AppCommand.parseCommandLine(["keys", "--check"])
        let keys = try #require(command as? AppletKeysCommand<RequiredOptionApp>, "parsed as \(type(of: command))")
        #expect(keys.check)
        #expect(keys.appOptions == nil)
        let withKeymap = try AppCommand.parseCommandLine(["--keymap", "/tmp/k.toml", "keys"])
        #expect((withKeymap as? AppletKeysCommand<RequiredOptionApp>)?.standard.keymap == "/tmp/k.toml")
        let keymapAfter = try AppCommand.parseCommandLine(["keys", "--keymap", "/tmp/k.toml"])
        #expect((keymapAfter as? AppletKeysCommand<RequiredOptionApp>)?.standard.keymap == "/tmp/k.toml")
    }

    @Test func keysUsesTheAppsOptionsWhenGiven() throws {
        let command = try AppCommand.parseCommandLine(["--file", "notes.txt", "keys", "--check"])
        let keys = try #require(command as? AppletKeysCommand<RequiredOptionApp>)
        #expect(keys.appOptions?.file == "notes.txt")
    }

    @Test func keysChecksAnAppWithoutItsRequiredOptions() async {
        let status = await AppletKeysCommand<RequiredOptionApp>.report(check: true, keymapOption: "/nonexistent/keys.toml")
        #expect(status == 0)
    }

    @Test func badArgumentsToKeysAreStillReported() {
        #expect(throws: (any Error).self) { try AppCommand.parseCommandLine(["keys", "--no-such-flag"]) }
        #expect(throws: (any Error).self) { try AppCommand.parseCommandLine(["--file", "x", "keys", "--no-such-flag"]) }
    }
}
