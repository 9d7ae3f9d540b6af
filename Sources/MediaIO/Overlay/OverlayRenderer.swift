import CCairo
public import PoseKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Draws the AR coaching overlay onto video frames with Cairo: the skeleton wireframe, the measured
/// angle, the rep counter, the exercise, the cue, the range-of-motion gauge, warnings and set-up
/// guidance.
///
/// Everything is sized from ``Metrics`` (1 % of the frame's shorter side), so the overlay reads the same
/// on a 294-pixel phone clip and on 4K. The renderer keeps one Cairo surface and reuses it while the
/// frame size stays the same; it is not thread-safe, so give each drawing task its own renderer.
///
/// ```swift
/// let renderer = OverlayRenderer()
/// var image = try decoder.next()!
/// renderer.render(OverlayState(people: frame.poses, coachedIndex: 0, reps: 3), onto: &image)
/// ```
public final class OverlayRenderer {
    /// What to draw and how.
    public struct Configuration: Sendable {
        /// The wireframe's bones.
        public var bones: [Bone]
        /// Keypoints below this confidence are not drawn, nor their bones.
        public var minimumConfidence: Double
        /// The font family (fontconfig name).
        public var fontFamily: String

        public init(bones: [Bone] = Bone.standard, minimumConfidence: Double = 0.3, fontFamily: String = "DejaVu Sans")
        {
            self.bones = bones
            self.minimumConfidence = minimumConfidence
            self.fontFamily = fontFamily
        }
    }

    /// Sizes in pixels for one frame size, all proportional to ``unit``.
    public struct Metrics: Sendable, Hashable {
        /// 1 % of the frame's shorter side.
        public var unit: Double
        public var boneWidth: Double { unit * 0.6 }
        public var jointRadius: Double { unit * 0.95 }
        public var margin: Double { unit * 2.5 }
        public var padding: Double { unit * 1.6 }
        /// Body text (cue, title).
        public var fontSize: Double { unit * 3.8 }
        /// Small captions.
        public var captionSize: Double { unit * 2.8 }
        /// The rep count's digits.
        public var counterSize: Double { unit * 9 }

        public init(width: Int, height: Int) {
            unit = Double(min(width, height)) / 100
        }
    }

    public let configuration: Configuration
    private var canvas: CairoImageSurface?
    private var enabledBones: [(Int, Int)]
    private var boneJoints: [Int]
    /// For each joint, the joints it has a bone to.
    private var partners: [[Int]]

    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        enabledBones = configuration.bones.map { ($0.from.rawValue, $0.to.rawValue) }
        boneJoints = Array(Set(configuration.bones.flatMap { [$0.from.rawValue, $0.to.rawValue] })).sorted()
        var partners = [[Int]](repeating: [], count: Joint.count)
        for bone in configuration.bones {
            partners[bone.from.rawValue].append(bone.to.rawValue)
            partners[bone.to.rawValue].append(bone.from.rawValue)
        }
        self.partners = partners
    }

    /// Draws `state` over `image` in place.
    ///
    /// An `rgb0` image (4 bytes a pixel, rows a multiple of 4 bytes) is drawn on directly, as a Cairo
    /// surface over its bytes; an `rgb24` one is copied to a surface and back.
    public func render(_ state: OverlayState, onto image: inout RGBImage) {
        guard image.bytesPerPixel == 4, image.bytesPerRow % 4 == 0 else {
            let surface = surface(width: image.width, height: image.height)
            surface.load(from: image)
            draw(state, context: surface.context, width: surface.width, height: surface.height, swapped: false)
            surface.store(into: &image)
            return
        }
        let (width, height, stride) = (image.width, image.height, image.bytesPerRow)
        image.bytes.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            let surface = cairo_image_surface_create_for_data(
                base,
                CAIRO_FORMAT_RGB24,
                Int32(width),
                Int32(height),
                Int32(stride)
            )
            let context = cairo_create(surface)
            defer {
                cairo_destroy(context)
                cairo_surface_destroy(surface)
            }
            guard let context, cairo_status(context) == CAIRO_STATUS_SUCCESS else { return }
            draw(state, context: context, width: width, height: height, swapped: true)
            cairo_surface_flush(surface)
        }
    }

    /// Draws `state` on an opaque background of `color` (for pose-track input, which has no video).
    public func render(_ state: OverlayState, width: Int, height: Int, background: OverlayColor) -> RGBImage {
        let surface = surface(width: width, height: height)
        let canvas = CairoCanvas(surface.context, fontFamily: configuration.fontFamily)
        canvas.fillRectangle(
            x: 0,
            y: 0,
            width: Double(width),
            height: Double(height),
            color: background.withAlpha(1)
        )
        draw(state, context: surface.context, width: width, height: height, swapped: false)
        var image = RGBImage(width: width, height: height)
        surface.store(into: &image)
        return image
    }

    private func surface(width: Int, height: Int) -> CairoImageSurface {
        if let canvas, canvas.width == width, canvas.height == height { return canvas }
        let created = CairoImageSurface(width: width, height: height)
        canvas = created
        return created
    }

    // MARK: - Drawing

    /// Draws `state` with `cr` on a `width`×`height` surface; `swapped`: the surface holds `rgb0` bytes.
    private func draw(_ state: OverlayState, context cr: OpaquePointer, width: Int, height: Int, swapped: Bool) {
        let canvas = CairoCanvas(cr, fontFamily: configuration.fontFamily, swapsRedAndBlue: swapped)
        let metrics = Metrics(width: width, height: height)
        let size = (width: Double(width), height: Double(height))
        cairo_save(cr)
        defer { cairo_restore(cr) }
        cairo_set_antialias(cr, CAIRO_ANTIALIAS_BEST)
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
        cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)

        let coached = state.coachedIndex.flatMap { state.people.indices.contains($0) ? $0 : nil }
        for (index, pose) in state.people.enumerated() where index != coached {
            drawSkeleton(pose, clear: false, canvas: canvas, metrics: metrics)
        }
        if let coached {
            // The wedge goes under the bones so the joint keeps its colour; the value goes on top.
            let angle = state.angle.flatMap { angleGeometry($0, pose: state.people[coached], metrics: metrics) }
            if let angle { drawArc(angle, canvas: canvas, metrics: metrics) }
            drawSkeleton(state.people[coached], clear: true, canvas: canvas, metrics: metrics)
            if let angle { drawAngleLabel(angle, canvas: canvas, metrics: metrics, size: size) }
        }
        drawHands(state, canvas: canvas, metrics: metrics)
        if let guidance = state.setupGuidance, !guidance.isEmpty {
            drawGuidance(guidance, canvas: canvas, metrics: metrics, size: size)
        }
        let titleBottom = drawTitle(state, canvas: canvas, metrics: metrics)
        drawCounter(state, canvas: canvas, metrics: metrics, size: size)
        if let rom = state.rangeOfMotion {
            // Past a safety limit the gauge is red, whatever the range (at 100 % it read green at the crossing).
            drawGauge(
                rom,
                unsafe: state.warning?.isEmpty == false,
                top: titleBottom,
                canvas: canvas,
                metrics: metrics,
                size: size
            )
        }
        var bottom = size.height - metrics.margin
        if let cue = state.cue, !cue.isEmpty {
            bottom = drawBanner(
                cue,
                color: color(for: state.cueKind),
                filled: false,
                bottom: bottom,
                canvas: canvas,
                metrics: metrics,
                size: size
            )
        }
        if let warning = state.warning, !warning.isEmpty {
            _ = drawBanner(
                "⚠ " + warning,
                color: .danger,
                filled: true,
                bottom: bottom,
                canvas: canvas,
                metrics: metrics,
                size: size
            )
        }
    }

    private func color(for kind: OverlayState.CueKind) -> OverlayColor {
        switch kind {
        case .info: .right
        case .encouragement: .good
        case .correction: .caution
        case .safety: .danger
        }
    }

    private func sideColor(_ joint: Joint) -> OverlayColor {
        joint.isLeft ? .left : joint.isRight ? .right : .center
    }

    private func drawSkeleton(_ pose: Pose, clear: Bool, canvas: CairoCanvas, metrics: Metrics) {
        let cr = canvas.cr
        let threshold = configuration.minimumConfidence
        let keypoints = pose.keypoints
        func seen(_ index: Int) -> Bool { keypoints[index].confidence >= threshold && keypoints[index].confidence > 0 }
        let faint = OverlayColor.center.withAlpha(0.45)
        let width = clear ? metrics.boneWidth : metrics.boneWidth * 0.6

        // A dark halo under the coached person's bones keeps them visible on light backgrounds.
        if clear {
            cairo_set_line_width(cr, width + metrics.unit * 0.35)
            canvas.setColor(OverlayColor(red: 0, green: 0, blue: 0, alpha: 0.45))
            for (a, b) in enabledBones where seen(a) && seen(b) {
                cairo_move_to(cr, keypoints[a].x, keypoints[a].y)
                cairo_line_to(cr, keypoints[b].x, keypoints[b].y)
            }
            cairo_stroke(cr)
        }
        cairo_set_line_width(cr, width)
        for (a, b) in enabledBones where seen(a) && seen(b) {
            let jointA = Joint(rawValue: a)!
            let jointB = Joint(rawValue: b)!
            let color: OverlayColor =
                if !clear { faint } else if jointA.isLeft && jointB.isLeft {
                    .left
                } else if jointA.isRight
                    && jointB.isRight
                { .right } else { .center }
            canvas.setColor(color)
            cairo_move_to(cr, keypoints[a].x, keypoints[a].y)
            cairo_line_to(cr, keypoints[b].x, keypoints[b].y)
            cairo_stroke(cr)
        }
        let radius = clear ? metrics.jointRadius : metrics.jointRadius * 0.55
        for index in boneJoints where seen(index) && partners[index].contains(where: seen) {
            let keypoint = keypoints[index]
            if clear {
                canvas.fillCircle(
                    x: keypoint.x,
                    y: keypoint.y,
                    radius: radius + metrics.unit * 0.3,
                    color: OverlayColor(red: 0, green: 0, blue: 0, alpha: 0.6)
                )
                canvas.fillCircle(
                    x: keypoint.x,
                    y: keypoint.y,
                    radius: radius,
                    color: sideColor(Joint(rawValue: index)!)
                )
            } else {
                canvas.fillCircle(x: keypoint.x, y: keypoint.y, radius: radius, color: faint)
            }
        }
    }

    /// Where the angle is drawn: vertex, start direction, signed sweep and radius.
    private struct AngleGeometry {
        var angle: OverlayState.Angle
        var vertex: Vector2
        var start: Double
        var sweep: Double
        var radius: Double
        var color: OverlayColor
    }

    private func angleGeometry(_ angle: OverlayState.Angle, pose: Pose, metrics: Metrics) -> AngleGeometry? {
        let threshold = configuration.minimumConfidence
        let v = pose[angle.joint]
        let a = pose[angle.from]
        let b = pose[angle.to]
        guard v.isVisible(threshold: threshold), a.isVisible(threshold: threshold), b.isVisible(threshold: threshold)
        else { return nil }
        let lengthA = (a.point - v.point).length
        let lengthB = (b.point - v.point).length
        guard lengthA > 1, lengthB > 1 else { return nil }
        let start = atan2(a.y - v.y, a.x - v.x)
        var sweep = atan2(b.y - v.y, b.x - v.x) - start
        while sweep > .pi { sweep -= 2 * .pi }
        while sweep <= -.pi { sweep += 2 * .pi }
        let radius = max(metrics.unit * 2.5, min(metrics.unit * 6, 0.5 * min(lengthA, lengthB)))
        let color: OverlayColor =
            switch angle.isInTarget {
            case true?: .good
            case false?: .caution
            case nil: .accent
            }
        return AngleGeometry(angle: angle, vertex: v.point, start: start, sweep: sweep, radius: radius, color: color)
    }

    private func arcPath(_ geometry: AngleGeometry, cr: OpaquePointer) {
        let v = geometry.vertex
        if geometry.sweep >= 0 {
            cairo_arc(cr, v.x, v.y, geometry.radius, geometry.start, geometry.start + geometry.sweep)
        } else {
            cairo_arc_negative(cr, v.x, v.y, geometry.radius, geometry.start, geometry.start + geometry.sweep)
        }
    }

    private func drawArc(_ geometry: AngleGeometry, canvas: CairoCanvas, metrics: Metrics) {
        let cr = canvas.cr
        cairo_move_to(cr, geometry.vertex.x, geometry.vertex.y)
        arcPath(geometry, cr: cr)
        cairo_close_path(cr)
        canvas.setColor(geometry.color.withAlpha(0.3))
        cairo_fill(cr)
        cairo_new_sub_path(cr)
        arcPath(geometry, cr: cr)
        cairo_set_line_width(cr, metrics.unit * 0.5)
        canvas.setColor(geometry.color)
        cairo_stroke(cr)
    }

    /// The value, on the outer side of the angle where the bones are not.
    private func drawAngleLabel(
        _ geometry: AngleGeometry,
        canvas: CairoCanvas,
        metrics: Metrics,
        size: (width: Double, height: Double)
    ) {
        let text = "\(Int(geometry.angle.degrees.rounded()))°"
        canvas.setFont(size: metrics.fontSize, bold: true)
        let textWidth = canvas.textWidth(text)
        let (ascent, _) = canvas.fontMetrics()
        let boxWidth = textWidth + metrics.padding * 1.4
        let boxHeight = ascent + metrics.padding * 1.0
        let outward = geometry.start + geometry.sweep / 2 + .pi
        let reach = metrics.unit * 2.2 + 0.5 * (abs(cos(outward)) * boxWidth + abs(sin(outward)) * boxHeight)
        var centerX = geometry.vertex.x + cos(outward) * reach
        var centerY = geometry.vertex.y + sin(outward) * reach
        centerX = min(max(centerX, boxWidth / 2 + 2), size.width - boxWidth / 2 - 2)
        centerY = min(max(centerY, boxHeight / 2 + 2), size.height - boxHeight / 2 - 2)
        canvas.fillRoundedRectangle(
            x: centerX - boxWidth / 2,
            y: centerY - boxHeight / 2,
            width: boxWidth,
            height: boxHeight,
            radius: boxHeight * 0.3,
            color: .panel
        )
        canvas.setColor(geometry.color)
        canvas.drawText(text, x: centerX, y: centerY + ascent * 0.42, alignment: .center)
    }
}
