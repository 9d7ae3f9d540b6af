/// One body keypoint in image pixels (origin top-left, y down), with its confidence.
///
/// `confidence == 0` means the keypoint was not seen; its coordinates are then meaningless.
/// `z` is depth in the same pixel scale (smaller = closer), `nil` for 2-D sources.
public struct Keypoint: Sendable, Hashable {
    public var x: Double
    public var y: Double
    public var z: Double?
    public var confidence: Double

    public init(x: Double, y: Double, z: Double? = nil, confidence: Double) {
        self.x = x
        self.y = y
        self.z = z
        self.confidence = confidence
    }

    /// A keypoint that was not seen.
    public static let missing = Keypoint(x: 0, y: 0, z: nil, confidence: 0)

    /// Whether the keypoint was seen with at least `threshold` confidence.
    @inlinable
    public func isVisible(threshold: Double = 0.01) -> Bool { confidence >= threshold && confidence > 0 }

    /// The point as a 2-D vector.
    @inlinable
    public var point: Vector2 { Vector2(x: x, y: y) }
}

/// A 2-D vector in image pixels.
public struct Vector2: Sendable, Hashable {
    public var x: Double
    public var y: Double

    @inlinable
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    @inlinable public static func + (a: Vector2, b: Vector2) -> Vector2 { Vector2(x: a.x + b.x, y: a.y + b.y) }
    @inlinable public static func - (a: Vector2, b: Vector2) -> Vector2 { Vector2(x: a.x - b.x, y: a.y - b.y) }
    @inlinable public static func * (a: Vector2, s: Double) -> Vector2 { Vector2(x: a.x * s, y: a.y * s) }

    /// Euclidean length.
    @inlinable public var length: Double { (x * x + y * y).squareRoot() }

    /// Dot product.
    @inlinable public func dot(_ other: Vector2) -> Double { x * other.x + y * other.y }

    /// The midpoint between two points.
    @inlinable public static func midpoint(_ a: Vector2, _ b: Vector2) -> Vector2 {
        Vector2(x: (a.x + b.x) / 2, y: (a.y + b.y) / 2)
    }
}
