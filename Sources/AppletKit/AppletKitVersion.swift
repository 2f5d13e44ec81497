/// The framework's version, shown by `appletkit --version`.
public enum AppletKitVersion {
    public static let current = "0.1.0"
}
