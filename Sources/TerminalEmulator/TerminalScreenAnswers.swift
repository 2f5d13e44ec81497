import Terminal

// The questions a program asks about the terminal itself, answered as `identity` says: the default
// colours (OSC 10 and 11), the name (XTVERSION) and terminfo capabilities (XTGETTCAP). DECRQM 2026,
// the kitty flags and DA1 are answered beside the other control sequences (TerminalScreenControls).
// Every answer goes through `respond`, which keeps at most 4 KiB waiting.

extension TerminalScreen {
    /// `OSC 10 ; ? ; ? …`: each `?` asks for a dynamic colour, the first for `first` (10 is the
    /// foreground, 11 the background) and each next one for the one after it, as xterm reads them.
    /// Answered as xterm does, `OSC n ; rgb:rrrr/gggg/bbbb` with the query's terminator, for the
    /// colours `identity` has. Returns false when it was not a query (setting a colour, which is
    /// not emulated).
    mutating func answerColorQuery(first: Int, _ parameters: ArraySlice<UInt8>, endedByBEL: Bool) -> Bool {
        let queries = parameters.split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: false)
        guard !queries.isEmpty, queries.allSatisfy({ $0.elementsEqual([UInt8(ascii: "?")]) }) else { return false }
        let terminator = endedByBEL ? "\u{07}" : "\u{1B}\\"
        for (offset, _) in queries.enumerated() {
            let number = first + offset
            let color: TerminalColor?
            switch number {
            case 10: color = identity.foreground
            case 11: color = identity.background
            default: color = nil   // the cursor's and the others: not known here
            }
            guard let color else { continue }
            respond("\u{1B}]\(number);\(Self.xColorSpec(color))\(terminator)")
        }
        return true
    }

    /// `rgb:rrrr/gggg/bbbb`, 16 bits a channel as xterm answers (0xff is 0xffff).
    static func xColorSpec(_ color: TerminalColor) -> String {
        func channel(_ value: UInt8) -> String {
            let hex = String(value, radix: 16)
            let two = value < 16 ? "0" + hex : hex
            return two + two
        }
        return "rgb:\(channel(color.red))/\(channel(color.green))/\(channel(color.blue))"
    }

    /// XTVERSION (`CSI > 0 q`): `DCS > | name ST`, when `identity` has a name (its printable ASCII).
    mutating func answerVersionQuery() {
        guard let version = identity.version else { return }
        let text = String(decoding: version.utf8.filter { (0x20..<0x7F).contains($0) }, as: UTF8.self)
        respond("\u{1B}P>|\(text)\u{1B}\\")
    }

    /// A DCS string, without its `ESC P` and terminator. XTGETTCAP (`+q` and hex names separated
    /// by `;`) is answered when `identity` has capabilities, one answer a name; anything else (and
    /// XTGETTCAP unanswered) is counted in `ignoredStrings`.
    mutating func dispatchDCS(_ string: [UInt8], endedByBEL: Bool) {
        guard string.starts(with: [UInt8(ascii: "+"), UInt8(ascii: "q")]), let capabilities = identity.capabilities else {
            ignoredStrings += 1
            return
        }
        for hexName in string.dropFirst(2).split(separator: UInt8(ascii: ";")) {
            let echoed = hexName.allSatisfy(\.isHexDigit) ? String(decoding: hexName, as: UTF8.self) : ""
            guard let name = Self.hexDecoded(hexName), let value = capabilities[name] else {
                respond("\u{1B}P0+r\(echoed)\u{1B}\\")
                continue
            }
            respond("\u{1B}P1+r\(echoed)" + (value.isEmpty ? "" : "=" + Self.hexEncoded(value)) + "\u{1B}\\")
        }
    }

    /// Hex pairs as printable ASCII (an XTGETTCAP name); nil when they are not.
    static func hexDecoded(_ hex: ArraySlice<UInt8>) -> String? {
        guard !hex.isEmpty, hex.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(hex.count / 2)
        var index = hex.startIndex
        while index < hex.endIndex {
            guard let high = hex[index].hexDigitValue, let low = hex[index + 1].hexDigitValue else { return nil }
            let byte = high << 4 | low
            guard (0x20..<0x7F).contains(byte) else { return nil }
            bytes.append(byte)
            index += 2
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Text as upper-case hex pairs, as xterm writes XTGETTCAP values.
    static func hexEncoded(_ text: String) -> String {
        let digits = Array("0123456789ABCDEF".utf8)
        var hex: [UInt8] = []
        for byte in text.utf8 { hex += [digits[Int(byte >> 4)], digits[Int(byte & 0xF)]] }
        return String(decoding: hex, as: UTF8.self)
    }
}

private extension UInt8 {
    var hexDigitValue: UInt8? {
        switch self {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): self - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): self - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): self - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    var isHexDigit: Bool { hexDigitValue != nil }
}
