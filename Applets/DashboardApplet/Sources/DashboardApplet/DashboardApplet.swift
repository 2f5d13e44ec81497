import AppletKit
import CounterAppletInterface
import DashboardAppletInterface

/// Shows and changes the shared counter, knowing it only through `CounterAppletInterface`:
/// a progress bar towards a goal, `d` doubles the count, `r` resets it, `>`/`<` move the goal
/// (shared by every instance of the app: a `SyncState`).
public struct DashboardApplet: Applet {
    public let id = "dashboard"
    public let title = "Dashboard"
    @StoredState(\.counter) private var counter
    @SyncState(\.dashboardGoal) private var goal

    public init() {}

    public var body: some View {
        let count = counter.count
        let filled = goal > 0 ? max(0, min(30, count * 30 / goal)) : 0
        return VStack(spacing: 1) {
            Text("Dashboard").bold()
            HStack(spacing: 1) {
                Text("Shared counter:")
                Text("\(count)").themed(.accent)
                Text(count % 2 == 0 ? "(even)" : "(odd)").dim()
            }
            HStack(spacing: 1) {
                Text("Goal \(goal):")
                HStack {
                    Text(String(repeating: "█", count: filled)).themed(count >= goal ? .success : .warning)
                    Text(String(repeating: "░", count: 30 - filled)).dim()
                }
                Text(count >= goal ? "reached" : "\(goal - count) to go")
            }
            Text("Press + in the Counter tab, or d/r here: both change the same state.").dim()
        }
        .padding(1)
    }

    public var commands: [Command] {
        let counter = $counter, goal = $goal
        return [
            Command("d", "Double") { counter.wrappedValue.count *= 2 },
            Command("r", "Reset") { counter.wrappedValue.count = 0 },
            Command(">", "Goal+5") { goal.wrappedValue += 5 },
            Command("<", "Goal-5") { goal.wrappedValue = max(5, goal.wrappedValue - 5) },
        ]
    }
}
