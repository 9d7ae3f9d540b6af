/// An sRGB colour with opacity, used by the overlay and the reports.
///
/// ```swift
/// let amber = OverlayColor(red: 255, green: 176, blue: 0)
/// amber.hex   // "#ffb000"
/// ```
public struct OverlayColor: Sendable, Hashable {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8
    /// Opacity, 0 = transparent, 1 = opaque.
    public var alpha: Double

    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: Double = 1) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// The same colour with another opacity.
    public func withAlpha(_ alpha: Double) -> OverlayColor {
        OverlayColor(red: red, green: green, blue: blue, alpha: alpha)
    }

    /// `#rrggbb` (opacity left out), for CSS and SVG.
    public var hex: String {
        let digits = Array("0123456789abcdef")
        var text = "#"
        for value in [red, green, blue] {
            text.append(digits[Int(value >> 4)])
            text.append(digits[Int(value & 15)])
        }
        return text
    }

    // MARK: - Palette

    /// Joints and bones on the person's left side.
    public static let left = OverlayColor(red: 255, green: 140, blue: 26)
    /// Joints and bones on the person's right side.
    public static let right = OverlayColor(red: 38, green: 186, blue: 255)
    /// Midline joints and bones crossing the body.
    public static let center = OverlayColor(red: 245, green: 245, blue: 245)
    /// Within target.
    public static let good = OverlayColor(red: 46, green: 204, blue: 113)
    /// Short of the target, a correction.
    public static let caution = OverlayColor(red: 255, green: 176, blue: 0)
    /// Safety.
    public static let danger = OverlayColor(red: 231, green: 56, blue: 56)
    /// The measured angle when there is no target.
    public static let accent = OverlayColor(red: 255, green: 221, blue: 51)
    /// Panel backgrounds.
    public static let panel = OverlayColor(red: 16, green: 20, blue: 28, alpha: 0.62)
    /// Panel text.
    public static let text = OverlayColor(red: 255, green: 255, blue: 255)
    /// Secondary panel text.
    public static let mutedText = OverlayColor(red: 190, green: 198, blue: 210)
}
