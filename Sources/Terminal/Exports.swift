// Every client of the terminal device sees the values it draws and reads (cells, the canvas,
// events, the Terminal protocol) with `import Terminal`; every product that offers Terminal lists
// TerminalCore too.
@_exported import TerminalCore
