import Terminal

/// What a terminal (or anyone writing to it) sends: fed in chunks whose sizes come from the input
/// itself, as reads split it, then flushed. Nothing but an unfinished bracketed paste (which waits
/// for its end marker, bounded by the decoder's paste limit) may be left pending after the flush.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzInputDecoder(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = Array(UnsafeRawBufferPointer(start: start, count: count))
    guard let first = bytes.first else { return 0 }
    var decoder = InputDecoder()
    decoder.isKittyKeyboardActive = first & 0x80 != 0
    let chunk = Int(first & 0x0F) + 1
    var index = 1
    var events = 0
    while index < bytes.count {
        let end = min(bytes.count, index + chunk)
        events += decoder.feed(bytes[index..<end]).count
        _ = decoder.takeReplies()
        index = end
    }
    events += decoder.flush().count
    // Only an unfinished paste may wait past a flush, and its end marker ends it.
    if decoder.hasPending {
        events += decoder.feed([0x1B, 0x5B, 0x32, 0x30, 0x31, 0x7E]).count + decoder.flush().count
        precondition(!decoder.hasPending, "input left pending after a flush and a paste's end")
    }
    precondition(events <= bytes.count + 6, "\(events) events from \(bytes.count) bytes")
    return 0
}
