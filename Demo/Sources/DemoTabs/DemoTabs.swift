import AppletKit
import CounterApplet
import DashboardApplet
import ListApplet
import NotesApplet
import ProcessMonitorApplet
import WidgetsApplet

/// The demo's tabs, left to right: each example applet package contributes one.
@MainActor
public enum DemoTabs {
    public static var all: [Tab] {
        [
            Tab(CounterApplet()),
            Tab(DashboardApplet()),
            Tab(ListApplet()),
            Tab(WidgetsApplet()),
            Tab(NotesApplet()),
            Tab(ProcessMonitorApplet()),
        ]
    }
}
