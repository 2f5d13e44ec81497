import Testing
@testable import Terminal
@testable import TerminalCore

// What the start-up probe asks, what it makes of the answers, and what `--diagnose` prints from
// them. The bytes on a real pseudo-terminal are in AppletKitTests' TerminalProbePtyTests.

@Suite("TerminalColor")
struct TerminalColorTests {
    private func color(_ text: String) -> TerminalColor? {
        TerminalColor(xParseColor: Array(text.utf8)[...])
    }

    @Test func oneToFourHexDigitsAChannelScaleToEightBits() {
        #expect(color("rgb:f/f/f") == TerminalColor(red: 255, green: 255, blue: 255))
        #expect(color("rgb:ff/80/00") == TerminalColor(red: 255, green: 128, blue: 0))
        #expect(color("rgb:fff/000/800") == TerminalColor(red: 255, green: 0, blue: 128))
        #expect(color("rgb:ffff/8080/0000") == TerminalColor(red: 255, green: 128, blue: 0))
        #expect(color("rgb:FFFF/DdDd/0") == TerminalColor(red: 255, green: 221, blue: 0))
    }

    @Test func anythingElseIsRefused() {
        for text in ["", "rgb:", "rgb:ff/ff", "rgb:ff/ff/ff/ff", "rgb:fffff/0/0", "rgb://0", "rgb:gg/0/0",
                     "#ffffff", "rgba:ff/ff/ff/ff", "RGB:ff/ff/ff"] {
            #expect(color(text) == nil, "\(text)")
        }
    }

    @Test func darknessFollowsLuminance() {
        #expect(TerminalColor(red: 0, green: 0, blue: 0).isDark)
        #expect(TerminalColor(red: 0x1e, green: 0x1e, blue: 0x2e).isDark)   // a dark theme's grey-blue
        #expect(TerminalColor(red: 0x00, green: 0x2b, blue: 0x36).isDark)   // Solarized dark
        #expect(!TerminalColor(red: 255, green: 255, blue: 255).isDark)
        #expect(!TerminalColor(red: 0xfd, green: 0xf6, blue: 0xe3).isDark)  // Solarized light
        #expect(!TerminalColor(red: 0xc0, green: 0xc0, blue: 0xc0).isDark)
        #expect(TerminalColor(red: 0, green: 0, blue: 0).luminance == 0)
        #expect(TerminalColor(red: 255, green: 255, blue: 255).luminance == 1)
        #expect(TerminalColor(red: 1, green: 2, blue: 3).description == "#010203")
    }
}

@Suite("TerminalProbe")
struct TerminalProbeTests {
    private let esc = "\u{1B}"

    @Test func theQueriesEndWithDA1SoItsAnswerComesLast() {
        let withKitty = String(decoding: TerminalProbe.queries(kittyKeyboard: true), as: UTF8.self)
        let without = String(decoding: TerminalProbe.queries(kittyKeyboard: false), as: UTF8.self)
        #expect(withKitty.hasSuffix("\(esc)[?u\(esc)[c"))
        #expect(without.hasSuffix("\(esc)[c"))
        #expect(!without.contains("\(esc)[?u"))
        for query in ["\(esc)]10;?\(esc)\\", "\(esc)]11;?\(esc)\\", "\(esc)[?2026$p", "\(esc)P+q524742;5463\(esc)\\", "\(esc)[>0q"] {
            #expect(withKitty.contains(query), "\(query.debugDescription)")
        }
    }

    @Test func answersFillTheCapabilitiesAndDA1CompletesTheProbe() {
        var probe = TerminalProbe(capabilities: TerminalCapabilities(term: "xterm-256color", terminfoColors: 256))
        probe.receive(.backgroundColor(TerminalColor(red: 255, green: 255, blue: 255)))
        probe.receive(.foregroundColor(TerminalColor(red: 0, green: 0, blue: 0)))
        probe.receive(.modeReport(mode: 2026, status: 2))
        probe.receive(.modeReport(mode: 2004, status: 0))   // another mode: ignored
        probe.receive(.capability(name: "RGB", value: "8"))
        probe.receive(.terminalVersion("kitty(0.36.1)"))
        probe.receive(.kittyKeyboardFlags([]))
        #expect(!probe.isComplete)
        probe.receive(.primaryDeviceAttributes([62, 22]))
        #expect(probe.isComplete)
        let caps = probe.capabilities
        #expect(caps.answered)
        #expect(caps.backgroundIsDark == false)
        #expect(caps.synchronizedOutput == true)
        #expect(caps.reportsTruecolor == true)
        #expect(caps.terminalSaysTruecolor)
        #expect(caps.version == "kitty(0.36.1)")
        #expect(caps.kittyKeyboard)
    }

    @Test func eitherRGBOrTcMeansTruecolorInWhicheverOrderTheyCome() {
        func truecolor(_ replies: [TerminalReply]) -> Bool? {
            var probe = TerminalProbe(capabilities: TerminalCapabilities(term: "xterm-256color", terminfoColors: 256))
            for reply in replies { probe.receive(reply) }
            return probe.capabilities.reportsTruecolor
        }
        // kitty: no RGB, Tc a boolean (the empty value).
        #expect(truecolor([.capability(name: "RGB", value: nil), .capability(name: "Tc", value: "")]) == true)
        #expect(truecolor([.capability(name: "Tc", value: ""), .capability(name: "RGB", value: nil)]) == true)
        #expect(truecolor([.capability(name: "RGB", value: "8/8/8"), .capability(name: "Tc", value: nil)]) == true)
        #expect(truecolor([.capability(name: "RGB", value: nil), .capability(name: "Tc", value: nil)]) == false)
        #expect(truecolor([.capability(name: "colors", value: "256")]) == nil)
        #expect(truecolor([]) == nil)
    }

    @Test func decrpmStatusZeroOrPermanentlyResetMeansNoSynchronizedOutput() {
        for (status, expected) in [(0, false), (1, true), (2, true), (3, true), (4, false)] {
            var probe = TerminalProbe(capabilities: TerminalCapabilities(term: "xterm", terminfoColors: 8))
            probe.receive(.modeReport(mode: 2026, status: status))
            #expect(probe.capabilities.synchronizedOutput == expected, "status \(status)")
        }
        let silent = TerminalProbe(capabilities: TerminalCapabilities(term: "xterm", terminfoColors: 8))
        #expect(silent.capabilities.synchronizedOutput == nil)
    }

    @Test func theBackgroundComesFromTheAnswerThenCOLORFGBG() {
        var caps = TerminalCapabilities(environment: ["TERM": "rxvt", "COLORFGBG": "0;15"], terminfoColors: 88)
        #expect(caps.backgroundIsDark == false)
        caps.background = TerminalColor(red: 0, green: 0, blue: 0)   // the terminal's own word wins
        #expect(caps.backgroundIsDark == true)
        for (fgbg, dark) in [("15;0", true), ("7;default;8", true), ("0;default;15", false), ("0;7", false), ("12;4", true)] {
            let env = TerminalCapabilities(environment: ["COLORFGBG": fgbg], terminfoColors: 8)
            #expect(env.backgroundIsDark == dark, "\(fgbg)")
        }
        #expect(TerminalCapabilities(environment: ["COLORFGBG": "rubbish"], terminfoColors: 8).backgroundIsDark == nil)
        #expect(TerminalCapabilities(environment: [:], terminfoColors: 8).backgroundIsDark == nil)
    }

    @Test func colourDepthComesFromTerminfoAndNoColorWins() {
        #expect(TerminalCapabilities(environment: [:], terminfoColors: 0).colorSupport == .none)
        #expect(TerminalCapabilities(environment: [:], terminfoColors: 8).colorSupport == .basic8)
        #expect(TerminalCapabilities(environment: [:], terminfoColors: 16).colorSupport == .basic16)
        #expect(TerminalCapabilities(environment: [:], terminfoColors: 88).colorSupport == .basic16)
        #expect(TerminalCapabilities(environment: [:], terminfoColors: 256).colorSupport == .palette256)
        #expect(TerminalCapabilities(environment: [:], terminfoColors: 0x1000000).colorSupport == .truecolor)
        let noColor = TerminalCapabilities(environment: ["NO_COLOR": "1", "COLORTERM": "truecolor"], terminfoColors: 0x1000000)
        #expect(noColor.colorSupport == .none)
        // An empty NO_COLOR does not count (no-color.org).
        #expect(TerminalCapabilities(environment: ["NO_COLOR": ""], terminfoColors: 256).colorSupport == .palette256)
    }

    @Test func theReportSaysWhatWasFoundAndWhatIsUsed() {
        var caps = TerminalCapabilities(environment: ["TERM": "xterm-256color", "COLORTERM": "truecolor"], terminfoColors: 256)
        caps.answered = true
        caps.probeDuration = .milliseconds(3)
        caps.background = TerminalColor(red: 255, green: 255, blue: 255)
        caps.synchronizedOutput = false
        let lines = caps.report(theme: "light (the terminal's background)")
        #expect(lines == [
            "terminal     TERM=xterm-256color (terminfo: 256 colours), COLORTERM=truecolor",
            "answers      the terminal answered in 3 ms",
            "background   light: #ffffff from the terminal (OSC 11)",
            "theme        light (the terminal's background)",
            "colours      256-colour palette (from the terminfo entry for xterm-256color); the terminal draws 24-bit colour: TERM=xterm-direct would use it",
            "sync output  no (DECRQM 2026 not recognised): frames are written as they are",
            "kitty keys   no (no answer to CSI ? u): legacy keys",
        ])
        let silent = TerminalCapabilities(environment: ["TERM": "dumb", "NO_COLOR": "1"], terminfoColors: 0)
        let silentLines = silent.report(theme: "dark (the default)")
        #expect(silentLines.contains("answers      no answer in 0 ms: defaults from the environment"))
        #expect(silentLines.contains("background   unknown (no answer to OSC 11, no COLORFGBG)"))
        #expect(silentLines.contains("colours      none (NO_COLOR is set): attributes only (from the terminfo entry for dumb)"))
        #expect(silentLines.contains("sync output  unknown (no answer to DECRQM 2026): frames are written as they are"))
    }
}
