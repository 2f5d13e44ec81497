/// Fixed-width columns for plain text listings (the action log's rows, `appletkit keys`), counted
/// in characters.
///
/// ```swift
/// "42".leftPadded(to: 5)      // "   42"
/// "app".rightPadded(to: 5)    // "app  "
/// ```
extension StringProtocol {
    /// Spaces before the text up to `width` characters; longer text is left as it is.
    func leftPadded(to width: Int) -> String {
        String(repeating: " ", count: Swift.max(0, width - count)) + self
    }

    /// Spaces after the text up to `width` characters; longer text is left as it is.
    func rightPadded(to width: Int) -> String {
        String(self) + String(repeating: " ", count: Swift.max(0, width - count))
    }
}
