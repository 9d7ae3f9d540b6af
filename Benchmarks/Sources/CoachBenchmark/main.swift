// The whole coaching session (selection, smoothing, angles, counting, rules, recognition) on a
// synthetic one-minute 30 fps squat session repeated to over a million frames; prints frames per
// second on one core and allocations per frame in the steady state.
import CoachKit
import Foundation
import MallocCounter
import PoseKit

/// A side-view squat of `knee` degrees, person facing right, with a little deterministic jitter.
func squatPose(knee: Double, jitter: Double) -> Pose {
    let r = Double.pi / 180
    let alpha = knee / 2 * r
    let ankle = (x: 320.0, y: 445.0)
    let kneeP = (x: ankle.x + 80 * sin(alpha), y: ankle.y - 80 * cos(alpha))
    let hip = (x: kneeP.x - 85 * sin(alpha), y: kneeP.y - 85 * cos(alpha))
    let lean = knee * 0.3 * r
    let neck = (x: hip.x + 115 * sin(lean), y: hip.y - 115 * cos(lean))
    var pose = Pose()
    func set(_ j: Joint, _ x: Double, _ y: Double) { pose[j] = Keypoint(x: x + jitter, y: y - jitter, confidence: 0.9) }
    for (side, d) in [(BodySide.left, -1.5), (.right, 1.5)] {
        let l = side == .left
        set(l ? .leftAnkle : .rightAnkle, ankle.x + d, ankle.y)
        set(l ? .leftKnee : .rightKnee, kneeP.x + d, kneeP.y)
        set(l ? .leftHip : .rightHip, hip.x + d, hip.y)
        set(l ? .leftShoulder : .rightShoulder, neck.x + d, neck.y + 4)
        set(l ? .leftElbow : .rightElbow, neck.x + d + 20, neck.y + 60)
        set(l ? .leftWrist : .rightWrist, neck.x + d + 60, neck.y + 70)
        set(l ? .leftFootIndex : .rightFootIndex, ankle.x + 22 + d, ankle.y + 4)
    }
    set(.neck, neck.x, neck.y)
    set(.root, hip.x, hip.y)
    set(.nose, neck.x + 12, neck.y - 25)
    return pose
}

let fps = 30.0
let minute = Int(60 * fps)
func makeFrames() -> [PoseFrame] {
    var frames: [PoseFrame] = []
    frames.reserveCapacity(minute)
    for i in 0..<minute {
        let t = Double(i) / fps
        // 2.5-s squats after 2 s of standing.
        let phase = t < 2 ? 0 : 0.5 - 0.5 * cos(2 * .pi * (t - 2) / 2.5)
        let jitter = sin(Double(i) * 12.9898) * 1.2
        frames.append(PoseFrame(seconds: t, poses: [squatPose(knee: 5 + 90 * phase, jitter: jitter)]))
    }
    return frames
}
let frames = makeFrames()
// `minutes=N` times N minutes instead of 560 (1,008,000 frames): a short run for callgrind, whose instruction
// counts compare two builds on a loaded machine where times do not.
let repeats =
    CommandLine.arguments.dropFirst().first { $0.hasPrefix("minutes=") }.flatMap { Int($0.dropFirst(8)) } ?? 560
let library = try ExerciseLibrary.bundled()

func run(_ label: String, exercise: ExerciseDefinition?, frames: [PoseFrame], library: ExerciseLibrary) {
    var session = CoachingSession(
        configuration: .init(
            exercise: exercise,
            library: library.exercises,
            frameWidth: 640,
            frameHeight: 480,
            emitsPoseEvents: true
        )
    )
    var events = 0
    var frame = frames[0]
    // Warm-up minute (buffers grow to their steady size), not timed.
    for f in frames { events &+= session.ingest(f).count }
    let allocationsBefore = malloc_counter_count()
    let start = DispatchTime.now().uptimeNanoseconds
    let rssStart = residentMegabytes()
    // Frames/s of the first minute, and of minutes 31-60 and the last 30 (a 30-minute session's cost per frame).
    var minuteSeconds: [Double] = []
    for k in 1...repeats {
        let offset = Double(k) * 60
        let minuteStart = DispatchTime.now().uptimeNanoseconds
        for f in frames {
            frame.seconds = f.seconds + offset
            frame.poses = f.poses
            events &+= session.ingest(frame).count
        }
        minuteSeconds.append(Double(DispatchTime.now().uptimeNanoseconds - minuteStart) / 1e9)
        if k == 30 { rss30 = residentMegabytes() }
    }
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    let rssEnd = residentMegabytes()
    func rate(_ minutes: ArraySlice<Double>) -> Int { Int(Double(minutes.count * minute) / minutes.reduce(0, +)) }
    let allocations = malloc_counter_count() - allocationsBefore
    let total = repeats * minute
    let summaryReps = session.repetitions.count
    print(
        "\(label): \(total) frames in \(String(format: "%.2f", seconds)) s = \(Int(Double(total) / seconds)) frames/s; "
            + "allocations \(allocations) (\(String(format: "%.4f", Double(allocations) / Double(total))) per frame); "
            + "reps \(summaryReps); events \(events)"
    )
    guard repeats >= 60 else { return }
    print(
        "  frames/s: minute 1 \(rate(minuteSeconds.prefix(1))), minutes 1-30 \(rate(minuteSeconds.prefix(30))), "
            + "minutes 31-60 \(rate(minuteSeconds[30..<60])), last 30 minutes \(rate(minuteSeconds.suffix(30))); "
            + "resident memory \(rssStart) MB at the start, \(rss30) MB after 30 minutes, \(rssEnd) MB after \(repeats) minutes"
    )
}

/// The process's resident memory in MB (Linux /proc/self/statm).
func residentMegabytes() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8),
        let pages = text.split(separator: " ").dropFirst().first.flatMap({ Int($0) })
    else { return -1 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE))) / 1_000_000
}
nonisolated(unsafe) var rss30 = 0

// `CoachBenchmark given` or `CoachBenchmark none` runs one mode only (for a profiler); no argument runs both.
let modes = CommandLine.arguments.dropFirst().filter { !$0.hasPrefix("minutes=") }
if modes.isEmpty || modes.contains("given") {
    run("squat given", exercise: try library.exercise(id: "squat"), frames: frames, library: library)
}
if modes.isEmpty || modes.contains("none") {
    run("no exercise (recognition + agnostic counter)", exercise: nil, frames: frames, library: library)
}
