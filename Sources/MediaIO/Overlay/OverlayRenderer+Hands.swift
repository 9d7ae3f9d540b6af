import CCairo
import PoseKit

extension OverlayRenderer {
    /// The bones of a hand: each finger from the wrist (the thumb from its CMC), and the knuckle line.
    static let handBones: [(HandJoint, HandJoint)] = {
        var bones: [(HandJoint, HandJoint)] = [(.wrist, .thumbCMC)]
        for finger in Finger.allCases {
            let joints = finger.joints
            if finger != .thumb { bones.append((.wrist, joints[0])) }
            for i in 0..<3 { bones.append((joints[i], joints[i + 1])) }
        }
        bones += [(.indexMCP, .middleMCP), (.middleMCP, .ringMCP), (.ringMCP, .littleMCP)]
        return bones
    }()

    /// Draws ``OverlayState/hands``: the coached hand clearly (the person's left hand in the left colour, the right
    /// in the right colour, as the body's sides), the others faintly; the coached thumb and index tips in
    /// ``OverlayState/fingertipColor`` when set.
    func drawHands(_ state: OverlayState, canvas: CairoCanvas, metrics: Metrics) {
        guard !state.hands.isEmpty else { return }
        let cr = canvas.cr
        for (index, hand) in state.hands.enumerated() {
            let clear = index == state.coachedHand
            let color: OverlayColor =
                !clear ? OverlayColor.center.withAlpha(0.45) : hand.chirality == .left ? .left : .right
            let width = clear ? metrics.boneWidth * 0.7 : metrics.boneWidth * 0.4
            func seen(_ joint: HandJoint) -> Bool { hand[joint].confidence > 0 }
            if clear {
                canvas.setColor(OverlayColor(red: 0, green: 0, blue: 0, alpha: 0.45))
                cairo_set_line_width(cr, width + metrics.unit * 0.3)
                for (a, b) in Self.handBones where seen(a) && seen(b) {
                    cairo_move_to(cr, hand[a].x, hand[a].y)
                    cairo_line_to(cr, hand[b].x, hand[b].y)
                }
                cairo_stroke(cr)
            }
            canvas.setColor(color)
            cairo_set_line_width(cr, width)
            for (a, b) in Self.handBones where seen(a) && seen(b) {
                cairo_move_to(cr, hand[a].x, hand[a].y)
                cairo_line_to(cr, hand[b].x, hand[b].y)
            }
            cairo_stroke(cr)
            let radius = clear ? metrics.jointRadius * 0.6 : metrics.jointRadius * 0.35
            for joint in HandJoint.allCases where seen(joint) {
                let tip = clear && (joint == .thumbTip || joint == .indexTip)
                let fill = tip ? state.fingertipColor ?? OverlayColor.center : OverlayColor.center
                canvas.fillCircle(x: hand[joint].x, y: hand[joint].y, radius: tip ? radius * 1.6 : radius, color: fill)
            }
        }
    }
}
