public import PoseKit

/// Total active motion (TAM), the American Society for Surgery of the Hand's measure of a finger's motion:
/// the sum of MCP, PIP and DIP flexion in a full fist, minus the sum of the extension deficits (how far each
/// joint stays bent) in the fully opened hand. The thumb's is MP + IP flexion minus their deficits.
///
/// A joint that bends backwards in the open hand (hyperextension, negative flexion) has no deficit; it does
/// not add to the total. Normal TAM is about 260° for a finger (MCP 85° + PIP 110° + DIP 65°, no deficit).
///
/// ```swift
/// let fist = HandAngles(fistHand)
/// let open = HandAngles(openHand)
/// TotalActiveMotion.degrees(of: .index, flexed: fist, extended: open)   // 251
/// ```
public enum TotalActiveMotion {
    /// `finger`'s TAM in degrees from its angles in a fist (`flexed`) and in the open hand (`extended`), or `nil`
    /// when a joint was not measured in either.
    public static func degrees(of finger: Finger, flexed: HandAngles, extended: HandAngles) -> Double? {
        guard let flexion = flexed.totalFlexion(of: finger) else { return nil }
        var deficits = 0.0
        for joint in HandAngles.flexingJoints(of: finger) {
            guard let angle = extended.flexion(at: joint) else { return nil }
            deficits += max(0, angle)
        }
        return flexion - deficits
    }

    /// The extension deficit of each of `finger`'s joints in the open hand (0 for a straight or hyperextended
    /// joint), in degrees; joints not measured are left out.
    public static func extensionDeficits(of finger: Finger, extended: HandAngles) -> [HandJoint: Double] {
        var deficits: [HandJoint: Double] = [:]
        for joint in HandAngles.flexingJoints(of: finger) {
            if let angle = extended.flexion(at: joint) { deficits[joint] = max(0, angle) }
        }
        return deficits
    }
}
