public import PoseKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where MediaPipe's runtime library and a model bundle (BlazePose, or the hand landmarker) are: the files
/// `scripts/setup.sh` puts in `runtime/`.
///
/// Explicit paths win. Otherwise the runtime folder is `$PTCOACH_RUNTIME_DIR` when that is set, else the
/// first `runtime/` folder found by walking up from the running executable's folder and then from the
/// current directory (so `.build/release/ptcoach`, the test runner and a shell in the repository all find
/// `<repo>/runtime`).
///
/// ```swift
/// let runtime = try MediaPipeRuntime.locate()
/// print(runtime.libraryPath)   // /work/main/runtime/lib/libmediapipe.so
/// ```
public struct MediaPipeRuntime: Sendable, Hashable {
    /// The environment variable that names the runtime folder.
    public static let environmentVariable = "PTCOACH_RUNTIME_DIR"
    /// The library's path inside the runtime folder.
    public static let libraryRelativePath = "lib/libmediapipe.so"
    /// The pose model bundle's path inside the runtime folder.
    public static let modelRelativePath = Model.pose.relativePath
    /// The hand model bundle's path inside the runtime folder.
    public static let handModelRelativePath = Model.hands.relativePath

    /// Which model bundle to find.
    public enum Model: Sendable, Hashable {
        /// BlazePose full (`pose_landmarker_full.task`).
        case pose
        /// MediaPipe's palm detector and hand landmark model, full (`hand_landmarker.task`).
        case hands

        /// The bundle's path inside the runtime folder.
        public var relativePath: String {
            switch self {
            case .pose: "models/pose_landmarker_full.task"
            case .hands: "models/hand_landmarker.task"
            }
        }

        /// "pose" or "hand", for messages.
        var noun: String { self == .pose ? "pose" : "hand" }
    }

    /// Path of `libmediapipe.so`.
    public var libraryPath: String
    /// Path of the landmarker's `.task` bundle.
    public var modelPath: String

    public init(libraryPath: String, modelPath: String) {
        self.libraryPath = libraryPath
        self.modelPath = modelPath
    }

    /// Finds the library and the model, checking that both files exist.
    ///
    /// - Parameters:
    ///   - model: which bundle: the pose model (default) or the hand model.
    ///   - libraryPath: an explicit library path, or `nil` to search.
    ///   - modelPath: an explicit model path, or `nil` to search.
    /// - Throws: ``PoseEstimationError/Code/runtimeNotInstalled`` or ``PoseEstimationError/Code/modelNotFound``,
    ///   with a message that names `scripts/setup.sh`.
    public static func locate(
        _ model: Model = .pose,
        libraryPath: String? = nil,
        modelPath: String? = nil
    ) throws(PoseEstimationError)
        -> MediaPipeRuntime
    {
        let environment = getenv(environmentVariable).map { String(cString: $0) }
        var starts: [String] = []
        if let executable = currentExecutablePath() { starts.append(directory(of: executable)) }
        if let current = currentDirectory() { starts.append(current) }
        return try locate(
            model,
            libraryPath: libraryPath,
            modelPath: modelPath,
            runtimeDirectory: environment.flatMap { $0.isEmpty ? nil : $0 },
            searchingUpFrom: starts,
            fileExists: isRegularFile
        )
    }

    /// The search, with its inputs passed in (for tests).
    static func locate(
        _ model: Model = .pose,
        libraryPath: String?,
        modelPath: String?,
        runtimeDirectory: String?,
        searchingUpFrom starts: [String],
        fileExists: (String) -> Bool
    ) throws(PoseEstimationError) -> MediaPipeRuntime {
        func find(_ relative: String) -> String? {
            if let runtimeDirectory { return join(runtimeDirectory, relative) }
            for start in starts {
                for folder in ancestors(of: start) {
                    let candidate = join(folder, "runtime/" + relative)
                    if fileExists(candidate) { return candidate }
                }
            }
            return nil
        }
        func whereSearched(_ relative: String) -> String {
            if let runtimeDirectory { return "no \(relative) in \(environmentVariable)=\(runtimeDirectory)" }
            let from = starts.isEmpty ? "the current directory" : starts.joined(separator: " or ")
            return "no runtime/\(relative) in \(environmentVariable) (unset) or above \(from)"
        }
        let fix = "Run scripts/setup.sh (or set \(environmentVariable) to the runtime folder it made)."

        let library = libraryPath ?? find(libraryRelativePath)
        guard let library, fileExists(library) else {
            let what = libraryPath.map { "no file at \($0)" } ?? whereSearched(libraryRelativePath)
            throw PoseEstimationError(.runtimeNotInstalled, "pose runtime not installed: \(what). \(fix)")
        }
        let bundle = modelPath ?? find(model.relativePath)
        guard let bundle, fileExists(bundle) else {
            let what = modelPath.map { "no file at \($0)" } ?? whereSearched(model.relativePath)
            throw PoseEstimationError(.modelNotFound, "\(model.noun) model not found: \(what). \(fix)")
        }
        return MediaPipeRuntime(libraryPath: library, modelPath: bundle)
    }

    // MARK: - Paths

    /// `folder` and each folder above it, up to `/`.
    static func ancestors(of folder: String) -> [String] {
        var result: [String] = []
        var current = folder.count > 1 && folder.hasSuffix("/") ? String(folder.dropLast()) : folder
        while true {
            result.append(current)
            guard current != "/", !current.isEmpty else { break }
            current = directory(of: current)
        }
        return result
    }

    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    static func join(_ folder: String, _ relative: String) -> String {
        folder.hasSuffix("/") ? folder + relative : folder + "/" + relative
    }

    private static func isRegularFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }

    private static func currentExecutablePath() -> String? {
        #if os(Linux)
        guard let resolved = realpath("/proc/self/exe", nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
        #else
        guard let first = CommandLine.arguments.first, let resolved = realpath(first, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
        #endif
    }

    private static func currentDirectory() -> String? {
        guard let path = getcwd(nil, 0) else { return nil }
        defer { free(path) }
        return String(cString: path)
    }
}
