import AppletKit
import CounterAppletInterface

/// A counter: `+` and `-` change it, `0` resets it; the buttons do the same with `Tab` and `Enter`.
public struct CounterApplet: Applet {
    public let id = "counter"
    public let title = "Counter"
    @StoredState(\.counter) private var counter

    public init() {}

    public var body: some View {
        VStack(spacing: 1) {
            Text("Counter").bold()
            Text("Count: \(counter.count)").themed(.success)
            HStack(spacing: 2) {
                Button("Decrement") { counter.count -= 1 }
                Button("Increment") { counter.count += 1 }
                Button("Reset") { counter.count = 0 }
            }
            Text("The Dashboard tab shows this same counter through CounterAppletInterface.").dim()
        }
        .padding(1)
    }

    public var commands: [Command] {
        let counter = $counter
        return [
            Command("+", "Increment") { counter.wrappedValue.count += 1 },
            Command("-", "Decrement") { counter.wrappedValue.count -= 1 },
            Command("0", "Reset") { counter.wrappedValue.count = 0 },
        ]
    }
}
