import Foundation
import Synchronization
import Testing
@testable import AppletUI

/// Typed handles used below, declared once as an app would in its Interface target.
private enum Editor {
    static let save = WidgetID<ButtonEvent>("save")
    static let search = WidgetID<TextFieldEvent>("search")
    static let info = WidgetID<ButtonEvent>("info")
    static let ghost = WidgetID<ButtonEvent>("ghost")      // never declared
}

@Suite("Widget system: typed handles, errors, toggleAll, state events, per-call transitions")
@MainActor
struct WidgetHandleTests {
    let manager = WidgetManager("editor", widgets: [Editor.save.name: .visible, Editor.search.name: .visible, Editor.info.name: .visible])

    // MARK: 1. Typed handles

    @Test func typedHandleTagsTheViewAndTypesItsSubscribers() throws {
        try withStore {
            let tree = ViewTree()
            let typed = Mutex<[ButtonEvent]>([])
            let byName = Mutex<[ButtonEvent]>([])
            let view = VStack { Button("Save") {}.widget(Editor.save, in: manager); Text("below") }
            // The handler's parameter is the handle's event type: no `as:`, no annotation.
            let subscription = try manager.subscribe(to: Editor.save) { event in typed.withLock { $0.append(event) } }
            // The string API names the same widget and keeps working.
            let plain = manager.subscribe(to: "save", as: ButtonEvent.self) { event in byName.withLock { $0.append(event) } }
            _ = render(view, width: 10, height: 2, tree: tree)
            tree.handleKey(KeyEvent(.enter))
            // Sending through the handle reaches the same subscribers.
            try manager.send(.pressed, from: Editor.save)
            #expect(typed.withLock { $0 } == [.pressed, .pressed])
            #expect(byName.withLock { $0 } == [.pressed, .pressed])
            // The handle drives the state like the string does.
            try manager.hide(Editor.save)
            #expect(try manager.state(of: "save") == .hidden)
            #expect(render(view, width: 10, height: 2, tree: tree).lines == ["below", ""])
            try manager.show(Editor.save)
            #expect(try manager.state(of: Editor.save) == .visible)
            #expect(Editor.save.description == "save" && Editor.save.stateChanges.name == "save")
            _ = (subscription, plain)
        }
    }

    @Test func typedSubscribeSendAndEventsThrowForUnknownWidgets() throws {
        try withStore {
            // Never declared nor added: unknown, even if a view uses the id (drawn as visible).
            _ = render(Button("Ghost") {}.widget(Editor.ghost, in: manager), width: 10, height: 1)
            #expect(!manager.contains(Editor.ghost))
            #expect(throws: WidgetError.widgetNotFound("ghost")) { try manager.subscribe(to: Editor.ghost) { _ in } }
            #expect(throws: WidgetError.widgetNotFound("ghost")) { try manager.send(.pressed, from: Editor.ghost) }
            #expect(throws: WidgetError.widgetNotFound("ghost")) { try manager.events(of: Editor.ghost) }
            #expect(throws: WidgetError.widgetNotFound("ghost")) { try manager.subscribe(to: Editor.ghost.stateChanges) { _ in } }
            // Added: known.
            manager.add(Editor.ghost, .disabled)
            #expect(manager.contains(Editor.ghost))
            let heard = Mutex(0)
            let subscription = try manager.subscribe(to: Editor.ghost) { _ in heard.withLock { $0 += 1 } }
            try manager.send(.pressed, from: Editor.ghost)
            #expect(heard.withLock { $0 } == 1)
            // Removed: unknown again.
            try manager.remove(Editor.ghost)
            #expect(throws: WidgetError.widgetNotFound("ghost")) { try manager.send(.pressed, from: Editor.ghost) }
            #expect(throws: WidgetError.widgetNotFound("ghost")) { try manager.subscribe(to: Editor.ghost) { _ in } }
            subscription.cancel()
        }
    }

    @Test func typedEventStreamCarriesTheHandlesType() async throws {
        let app = Application()
        let stream: AsyncStream<TextFieldEvent> = try Application.withCurrent(app) {
            let text = Ref("")
            let tree = ViewTree()
            let stream = try manager.events(of: Editor.search)
            let view = TextField("find", text: text.binding).widget(Editor.search, in: manager)
            _ = render(view, width: 10, height: 1, tree: tree)
            tree.handleKey(KeyEvent(.char("a")))
            tree.handleKey(KeyEvent(.enter))
            return stream
        }
        var received: [TextFieldEvent] = []
        for await event in stream {
            received.append(event)
            if received.count == 2 { break }
        }
        #expect(received == [.changed("a"), .submitted("a")])
    }

    /// The point of a typed handle: a handler for another widget's events is a compile error.
    /// Proved by type-checking two snippets against the AppletUI module just built: the right
    /// type compiles, the wrong one does not (and for that reason only).
    @Test(.enabled(if: TypeCheck.isAvailable, "needs swiftc and the built AppletUI module"))
    func subscribingWithTheWrongEventTypeDoesNotCompile() async throws {
        let prelude = """
        import AppletUI
        let save = WidgetID<ButtonEvent>("save")
        @MainActor func check(_ manager: WidgetManager) throws {
        """
        let right = try await TypeCheck.run(prelude + """
            let s = try manager.subscribe(to: save) { (event: ButtonEvent) in _ = event == .pressed }
            _ = s
            let t = try manager.subscribe(to: save.stateChanges) { (change: WidgetStateEvent) in _ = change.to }
            _ = t
            _ = Text("x").widget(save, in: manager)
            try manager.send(.pressed, from: save)
        }
        """)
        #expect(right.succeeded, "\(right.output)")
        let wrong = try await TypeCheck.run(prelude + """
            let s = try manager.subscribe(to: save) { (event: TextFieldEvent) in _ = event }
            _ = s
        }
        """)
        #expect(!wrong.succeeded)
        #expect(wrong.output.contains("TextFieldEvent") && wrong.output.contains("ButtonEvent"), "\(wrong.output)")
        let wrongSend = try await TypeCheck.run(prelude + """
            try manager.send(TextFieldEvent.submitted("x"), from: save)
        }
        """)
        #expect(!wrongSend.succeeded)
        #expect(wrongSend.output.contains("error:"), "\(wrongSend.output)")
    }

    // MARK: 2. Errors, toggleAll, state events, per-call transitions

    @Test func changingARemovedWidgetIsAnInvalidState() throws {
        try withStore {
            manager.add("late")
            try manager.remove("late")
            #expect(throws: WidgetError.invalidState("late", .removed)) { try manager.enable("late") }
            #expect(throws: WidgetError.invalidState("late", .removed)) { try manager.show("late") }
            #expect(throws: WidgetError.invalidState("late", .removed)) { try manager.remove("late") }
            // Asking about it finds nothing, as before; a never-known id is still not found.
            #expect(throws: WidgetError.widgetNotFound("late")) { try manager.state(of: "late") }
            #expect(throws: WidgetError.widgetNotFound("never")) { try manager.enable("never") }
            // Added again, it can change again.
            manager.add("late", .disabled)
            try manager.enable("late")
            #expect(try manager.state(of: "late") == .visible)
            #expect(WidgetError.invalidState("late", .removed).description.contains("removed"))
        }
    }

    @Test func aTransitionWithNothingToAnimateIsAnInvalidState() throws {
        try withStore {
            try manager.hide("info")
            #expect(throws: WidgetError.invalidState("info", .noVisibilityChange(from: .hidden, to: .hidden))) {
                try manager.hide("info", transition: .fade(duration: 0.3))
            }
            try manager.show("info")
            #expect(throws: WidgetError.invalidState("info", .noVisibilityChange(from: .visible, to: .visible))) {
                try manager.show(Editor.info, transition: .reveal)
            }
            #expect(throws: WidgetError.invalidState("info", .noVisibilityChange(from: .visible, to: .disabled))) {
                try manager.set("info", to: .disabled, transition: .fade)
            }
            #expect(try manager.state(of: "info") == .visible)   // nothing changed
            // Without a transition the same calls are fine (and change nothing when there is nothing to do).
            try manager.show("info")
            try manager.disable("info")
            // Out of disabled into hidden does hide, so it can animate.
            try manager.hide("info", transition: .fade(duration: 0.3))
            #expect(try manager.state(of: "info") == .hidden)
            #expect(throws: WidgetError.widgetNotFound("nope")) { try manager.hide("nope", transition: .fade) }
        }
    }

    @Test func toggleAllFlipsEveryWidgetInOneWrite() async throws {
        let app = Application()
        // Every value the store entry takes, up to a marker written after the toggle.
        let values = try Application.withCurrent(app) {
            try manager.disable("search")
            try manager.hide("info")
            let values = manager.states.changes
            manager.toggleAll()
            manager.add("marker")
            return values
        }
        var seen: [[String: WidgetState]] = []
        for await value in values {
            if value["marker"] != nil { break }
            seen.append(value)
        }
        #expect(seen == [["save": .hidden, "search": .hidden, "info": .visible]])
        try Application.withCurrent(app) {
            try manager.remove("marker")
            manager.toggleAll()
            #expect(manager.states.value == ["save": .visible, "search": .visible, "info": .hidden])
            let view = VStack { Text("s").widget("save", in: manager); Text("i").widget(Editor.info, in: manager) }
            #expect(render(view, width: 3, height: 2).lines == ["s", ""])
            manager.toggleAll()
            #expect(render(view, width: 3, height: 2).lines == ["i", ""])
            WidgetManager("empty").toggleAll()        // nothing to toggle: nothing happens
        }
    }

    @Test func stateChangesAreSentToSubscribers() throws {
        try withStore {
            let typed = Mutex<[WidgetStateEvent]>([])
            let byName = Mutex<[WidgetStateEvent]>([])
            let saveEvents = Mutex<[ButtonEvent]>([])
            let a = try manager.subscribe(to: Editor.save.stateChanges) { change in typed.withLock { $0.append(change) } }
            let b = manager.subscribe(to: "info", as: WidgetStateEvent.self) { change in byName.withLock { $0.append(change) } }
            let c = try manager.subscribe(to: Editor.save) { event in saveEvents.withLock { $0.append(event) } }
            try manager.hide("save")
            try manager.hide("save")                    // no change, no event
            try manager.show(Editor.save)
            try manager.disable("save")
            try manager.enable("save")
            try manager.toggleEnabled("save")
            try manager.set("save", to: .hidden, transition: .fade)
            manager.toggleAll()
            #expect(typed.withLock { $0 } == [
                .stateChanged(from: .visible, to: .hidden),
                .stateChanged(from: .hidden, to: .visible),
                .stateChanged(from: .visible, to: .disabled),
                .stateChanged(from: .disabled, to: .visible),
                .stateChanged(from: .visible, to: .disabled),
                .stateChanged(from: .disabled, to: .hidden),
                .stateChanged(from: .hidden, to: .visible),
            ])
            #expect(byName.withLock { $0 } == [.stateChanged(from: .visible, to: .hidden)])
            // State events go to their own type: the widget's own subscribers hear none of them.
            #expect(saveEvents.withLock { $0 }.isEmpty)
            // Adding and removing are not state changes.
            manager.add("extra")
            let d = manager.subscribe(to: "extra", as: WidgetStateEvent.self) { change in byName.withLock { $0.append(change) } }
            try manager.remove("extra")
            #expect(byName.withLock { $0 }.count == 1)
            #expect(WidgetStateEvent.stateChanged(from: .visible, to: .hidden).description == "stateChanged(from: visible, to: hidden)")
            _ = (a, b, c, d)
        }
    }

    @Test func stateChangesMadeOffTheMainThreadReachSubscribersOnTheMainActor() async throws {
        let app = Application()
        let heard = Mutex<[WidgetStateEvent]>([])
        let manager = self.manager
        let subscription = try Application.withCurrent(app) {
            try manager.subscribe(to: Editor.info.stateChanges) { change in
                MainActor.assertIsolated()
                heard.withLock { $0.append(change) }
            }
        }
        try await Task.detached {
            try Application.withCurrent(app) { try manager.hide("info") }
        }.value
        var turns = 0
        while heard.withLock({ $0.isEmpty }), turns < 10_000 { turns += 1; await Task.yield() }
        #expect(heard.withLock { $0 } == [.stateChanged(from: .visible, to: .hidden)])
        subscription.cancel()
    }

    @Test func aPerCallTransitionWinsOverTheViews() throws {
        try withStore {
            let tree = ViewTree()
            tree.animationsEnabled = true
            var now = ContinuousClock.now
            tree.clock = { now }
            // The view asks for no transition; the call asks for a fade.
            let view = VStack { Text("a"); Button("B") {}.widget(Editor.info, in: manager); Text("c") }
            #expect(render(view, width: 9, height: 3, tree: tree).lines == ["a", "[ B ]", "c"])
            try manager.hide("info", transition: .fade(duration: 0.1))
            var canvas = render(view, width: 9, height: 3, tree: tree)
            #expect(canvas.lines == ["a", "[ B ]", "c"])
            #expect(canvas[2, 1].style.attributes.contains(.dim))
            #expect(tree.needsAnimationFrame)
            now += .milliseconds(110)
            #expect(render(view, width: 9, height: 3, tree: tree).lines == ["a", "c", ""])
            #expect(!tree.needsAnimationFrame)
            // The next change asks for nothing: the view's own (none) applies, at once.
            try manager.show("info")
            canvas = render(view, width: 9, height: 3, tree: tree)
            #expect(canvas.lines == ["a", "[ B ]", "c"])
            #expect(!canvas[2, 1].style.attributes.contains(.dim))
            #expect(!tree.needsAnimationFrame)
        }
    }

    @Test func aPerCallNoneSkipsTheViewsTransitionAndToggleAllTakesOne() throws {
        try withStore {
            let tree = ViewTree()
            tree.animationsEnabled = true
            var now = ContinuousClock.now
            tree.clock = { now }
            let view = VStack {
                Text("top")
                VStack { Text("1"); Text("2"); Text("3"); Text("4") }.widget("save", in: manager, transition: .fade(duration: 0.1))
                Text("end")
            }
            _ = render(view, width: 5, height: 6, tree: tree)
            try manager.hide("save", transition: .none)
            #expect(render(view, width: 5, height: 6, tree: tree).lines == ["top", "end", "", "", "", ""])
            #expect(!tree.needsAnimationFrame)
            // toggleAll with a reveal of 100 ms: half way, half the rows.
            manager.toggleAll(transition: .reveal(duration: .milliseconds(100)))
            _ = render(view, width: 5, height: 6, tree: tree)
            now += .milliseconds(50)
            #expect(render(view, width: 5, height: 6, tree: tree).lines == ["top", "1", "2", "end", "", ""])
            now += .milliseconds(60)
            #expect(render(view, width: 5, height: 6, tree: tree).lines == ["top", "1", "2", "3", "4", "end"])
        }
    }

    @Test func transitionsKeepTheirBookkeepingApartFromTheWidgetsOwnState() {
        withStore {
            let tree = ViewTree()
            tree.animationsEnabled = true
            // A widget keeping state under its own id, inside a view with a transition.
            let view = Knob(title: "vol").widget("save", in: manager, transition: .fade)
            _ = render(view, width: 10, height: 1, tree: tree)
            tree.handleKey(KeyEvent(.right))
            _ = render(view, width: 10, height: 1, tree: tree)
            tree.handleKey(KeyEvent(.right))
            #expect(render(view, width: 10, height: 1, tree: tree).line(0) == "vol 2")
        }
    }

    @Test func transitionLengthsInSeconds() {
        #expect(WidgetTransition.fade(duration: 0.3) == .fade(.milliseconds(300)))
        #expect(WidgetTransition.reveal(duration: 0.25) == .reveal(.milliseconds(250)))
        #expect(WidgetTransition.fade(duration: .seconds(1)) == .fade(.seconds(1)))
    }
}

/// Type-checks a Swift snippet against the modules of the build these tests come from.
enum TypeCheck {
    struct Result { let succeeded: Bool; let output: String }

    /// The build's products directory: the nearest one above this test binary (the executable
    /// on Linux, the `.xctest` bundle on macOS) holding `Modules/AppletUI.swiftmodule` (or
    /// `AppletUI.swiftmodule`).
    static let buildDirectory: URL? = {
        let binaries = [Bundle.main.executableURL, URL(fileURLWithPath: CommandLine.arguments[0])].compactMap { $0 }
            + Bundle.allBundles.filter { $0.bundlePath.hasSuffix(".xctest") }.map(\.bundleURL)
        for binary in binaries {
            var dir = binary.resolvingSymlinksInPath().deletingLastPathComponent()
            for _ in 0..<6 {
                if modulesDirectory(in: dir) != nil { return dir }
                dir = dir.deletingLastPathComponent()
            }
        }
        return nil
    }()

    static func modulesDirectory(in dir: URL) -> URL? {
        let fm = FileManager.default
        for candidate in [dir.appendingPathComponent("Modules"), dir] where fm.fileExists(atPath: candidate.appendingPathComponent("AppletUI.swiftmodule").path) {
            return candidate
        }
        return nil
    }

    static let compiler: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin"
        return path.split(separator: ":").map { "\($0)/swiftc" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    static var isAvailable: Bool { buildDirectory != nil && compiler != nil }

    /// Type-checks `source`, waiting for the compiler on a thread of its own: a compile takes
    /// seconds to half a minute, and blocking a thread of Swift's cooperative pool that long (two
    /// on this machine) starved the tests whose tasks need it.
    static func run(_ source: String) async throws -> Result {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                do { continuation.resume(returning: try runWaiting(source)) } catch { continuation.resume(throwing: error) }
            }
        }
    }

    private static func runWaiting(_ source: String) throws -> Result {
        guard let build = buildDirectory, let modules = modulesDirectory(in: build), let compiler else {
            return Result(succeeded: false, output: "no compiler or modules")
        }
        let fm = FileManager.default
        let work = fm.temporaryDirectory.appendingPathComponent("widget-typecheck-\(UUID().uuidString)")
        try fm.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? fm.removeItem(at: work) }
        let file = work.appendingPathComponent("snippet.swift")
        try source.write(to: file, atomically: true, encoding: .utf8)
        var arguments = ["-typecheck", "-parse-as-library", "-swift-version", "6", "-I", modules.path, file.path]
        // The C modules the Swift ones import (the terminal shim): their module maps.
        if let items = try? fm.contentsOfDirectory(atPath: build.path) {
            for item in items where item.hasSuffix(".build") {
                let map = build.appendingPathComponent(item).appendingPathComponent("module.modulemap")
                if fm.fileExists(atPath: map.path) { arguments += ["-Xcc", "-fmodule-map-file=\(map.path)"] }
            }
        }
        // And those of C targets in dependencies (swift-system's CSystem): their include folders.
        var root = build
        while root.pathComponents.count > 1, !fm.fileExists(atPath: root.appendingPathComponent("checkouts").path) {
            root.deleteLastPathComponent()
        }
        let checkouts = root.appendingPathComponent("checkouts")
        for package in (try? fm.contentsOfDirectory(atPath: checkouts.path)) ?? [] {
            let sources = checkouts.appendingPathComponent(package).appendingPathComponent("Sources")
            for target in (try? fm.contentsOfDirectory(atPath: sources.path)) ?? [] {
                let map = sources.appendingPathComponent(target).appendingPathComponent("include/module.modulemap")
                if fm.fileExists(atPath: map.path) { arguments += ["-Xcc", "-fmodule-map-file=\(map.path)"] }
            }
        }
        let cache = build.appendingPathComponent("ModuleCache")
        if fm.fileExists(atPath: cache.path) { arguments += ["-module-cache-path", cache.path] }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: compiler)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return Result(succeeded: process.terminationStatus == 0, output: output)
    }
}
