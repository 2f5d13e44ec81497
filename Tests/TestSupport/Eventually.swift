/// Polls `condition` every `interval` until it holds or `timeout` passes; whether it held. The
/// timeout is generous on purpose: tests share a loaded machine, and a condition that holds
/// returns at its first poll after it does, so a long timeout costs nothing when things work.
///
/// ```swift
/// #expect(await eventually { file.exists })
/// #expect(await eventually(timeout: .seconds(30), every: .milliseconds(1)) { b.value == 2 })
/// ```
public func eventually(timeout: Duration = .seconds(10), every interval: Duration = .milliseconds(5),
                       _ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if condition() { return true }
        try? await Task.sleep(for: interval)
    }
    return condition()
}
