import AppletTesting
import Testing
@testable import Terminal
@testable import TerminalCore

/// The decoder under hostile input: a million random chunks, biased towards the bytes that start
/// and end sequences, must never crash, never hold more than a bounded number of bytes, and always
/// come back to reading keys. A seeded generator makes every failure reproducible.
@Suite("InputDecoder fuzz")
struct InputDecoderFuzzTests {
    /// Fragments of real input, so the random stream keeps starting (and abandoning) sequences of
    /// every kind instead of being almost all plain text.
    static let fragments: [[UInt8]] = [
        [0x1B], [0x1B, 0x5B], [0x1B, 0x4F], [0x1B, 0x5D], [0x1B, 0x50], [0x1B, 0x5F], [0x1B, 0x5C],
        Array("\u{1B}[200~".utf8), Array("\u{1B}[201~".utf8), Array("\u{1B}[<".utf8), Array("\u{1B}[M".utf8),
        Array("\u{1B}[[".utf8), Array(";".utf8), Array("1;5".utf8), Array("65535".utf8), Array("~".utf8),
        Array("u".utf8), Array("A".utf8), Array("m".utf8), [0x07], [0x0D], [0x0A], [0x03], [0x7F],
        [0xC3], [0xE2, 0x82], [0xF0, 0x9F], [0x80], [0xBF], [0xF4, 0x90], [0xED, 0xA0], [0xFF],
        Array("é".utf8), Array("日".utf8), Array("😀".utf8),
    ]

    /// What the decoder may hold at most: a sequence's parameters, or a paste's text so far (plus
    /// the partial end marker and a partial character).
    static let pendingBound = InputDecoder.maxSequenceLength + InputDecoder.maxPasteLength + 16

    static func chunk(_ random: inout SeededRandom) -> [UInt8] {
        var bytes: [UInt8] = []
        let pieces = Int.random(in: 0...4, using: &random)
        for _ in 0..<pieces {
            if Bool.random(using: &random) {
                bytes.append(UInt8.random(in: 0...255, using: &random))
            } else {
                bytes += fragments.randomElement(using: &random)!
            }
        }
        return bytes
    }

    /// Gets a decoder back to reading keys from any state: ends a paste, resolves what is pending.
    static func resynchronize(_ decoder: inout InputDecoder) {
        _ = decoder.feed(Array("\u{1B}[201~".utf8))
        _ = decoder.flush()
    }

    @Test("A million random chunks: no crash, bounded, and keys still decode after each stretch")
    func millionChunks() {
        let seed: UInt64 = 0x9E37_79B9_2026_1125
        var random = SeededRandom(seed: seed)
        var decoder = InputDecoder()
        var bytesFed = 0
        var events = 0
        var largestPending = 0
        for index in 1...1_000_000 {
            let bytes = Self.chunk(&random)
            bytesFed += bytes.count
            events += decoder.feed(bytes).count
            largestPending = max(largestPending, decoder.pendingByteCount)
            if decoder.hasPending && Int.random(in: 0..<8, using: &random) == 0 {
                events += decoder.flush().count   // the escape timeout passing now and then
            }
            if index % 10_000 == 0 {
                // Whatever the garbage left, the decoder holds nothing afterwards and reads the
                // next key as that key.
                Self.resynchronize(&decoder)
                #expect(!decoder.hasPending && decoder.pendingByteCount == 0, "seed \(seed), chunk \(index): still pending")
                let next = decoder.feed(Array("q".utf8))
                #expect(next == [.key(KeyEvent(.char("q")))], "seed \(seed), chunk \(index): 'q' decoded as \(next)")
            }
        }
        #expect(largestPending <= Self.pendingBound, "held \(largestPending) bytes")
        #expect(bytesFed > 3_000_000, "the stream was too small to mean anything: \(bytesFed) bytes")
        #expect(events > 0)
    }

    @Test("A paste whose end never comes is delivered in parts, so memory stays bounded")
    func endlessPaste() {
        var decoder = InputDecoder()
        var pasted = ""
        func collect(_ events: [Event]) {
            for event in events {
                guard case .paste(let text) = event else {
                    Issue.record("a key came out of a paste: \(event)")
                    continue
                }
                pasted += text
            }
        }
        collect(decoder.feed(Array("\u{1B}[200~".utf8)))
        // 10 MiB of text with CR LF line ends and a multi-byte character straddling every boundary.
        let line = Array("qq ++ 日本語 \r\n".utf8)
        let lines = 10 * 1_048_576 / line.count
        var largestPending = 0
        for _ in 0..<lines {
            collect(decoder.feed(line))
            largestPending = max(largestPending, decoder.pendingByteCount)
        }
        #expect(largestPending <= Self.pendingBound)
        #expect(decoder.hasPending, "a paste is never ended by anything but its end marker")
        collect(decoder.feed(Array("\u{1B}[201~".utf8)))
        #expect(!decoder.hasPending)
        // Every byte arrived, CR LF as LF, and no character was split between parts.
        #expect(pasted.utf8.count == lines * (line.count - 1))
        #expect(pasted == String(repeating: "qq ++ 日本語 \n", count: lines))
    }

    @Test("A CR at the end of a paste part still joins the LF after it")
    func crAtPartBoundary() {
        var decoder = InputDecoder()
        var bytes = Array("\u{1B}[200~".utf8)
        bytes += [UInt8](repeating: UInt8(ascii: "x"), count: InputDecoder.maxPasteLength - 1)
        bytes += [0x0D, 0x0A, UInt8(ascii: "y")]
        bytes += Array("\u{1B}[201~".utf8)
        let text = decoder.feed(bytes).compactMap { event -> String? in
            if case .paste(let text) = event { return text }
            return nil
        }.joined()
        #expect(text == String(repeating: "x", count: InputDecoder.maxPasteLength - 1) + "\ny")
    }
}
