// Old spellings of renamed API, kept in one place so code written against them still compiles,
// with a warning that names the new one.

/// `TerminalSize`: a terminal's size in columns and rows (the canvas's is `Size`, in width and
/// height).
@available(*, deprecated, renamed: "TerminalSize")
public typealias ScreenSize = TerminalSize
