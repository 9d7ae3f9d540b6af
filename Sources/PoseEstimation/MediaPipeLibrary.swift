internal import CMediaPipe
import PoseKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The functions of `libmediapipe.so` that the pose and hand landmarkers use, resolved with `dlopen`/`dlsym`.
///
/// Loading at run time keeps the package buildable and testable without the library, and turns a missing
/// library into a clear error instead of a link failure. The library is never unloaded: MediaPipe starts
/// threads of its own, and `dlopen` of the same path again only bumps a reference count.
struct MediaPipeLibrary {
    let errorFree: MpErrorFreeFn
    let imageCreateFromUint8Data: MpImageCreateFromUint8DataFn
    let imageFree: MpImageFreeFn
    let poseLandmarkerCreate: MpPoseLandmarkerCreateFn
    let poseLandmarkerDetectImage: MpPoseLandmarkerDetectImageFn
    let poseLandmarkerDetectForVideo: MpPoseLandmarkerDetectForVideoFn
    let poseLandmarkerCloseResult: MpPoseLandmarkerCloseResultFn
    let poseLandmarkerClose: MpPoseLandmarkerCloseFn
    let handLandmarkerCreate: MpHandLandmarkerCreateFn
    let handLandmarkerDetectImage: MpHandLandmarkerDetectImageFn
    let handLandmarkerDetectForVideo: MpHandLandmarkerDetectForVideoFn
    let handLandmarkerCloseResult: MpHandLandmarkerCloseResultFn
    let handLandmarkerClose: MpHandLandmarkerCloseFn

    /// Loads the library at `path` and resolves every function this binding calls.
    static func load(at path: String) throws(PoseEstimationError) -> MediaPipeLibrary {
        guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL) else {
            let reason = dlerror().map { String(cString: $0) } ?? "unknown dlopen error"
            throw PoseEstimationError(
                .runtimeNotInstalled,
                "pose runtime at \(path) could not be loaded: \(reason). "
                    + "Run scripts/setup.sh (it installs libegl1 and libgles2, which the library needs)."
            )
        }
        func symbol<Function>(_ name: String, as _: Function.Type) throws(PoseEstimationError) -> Function {
            guard let address = dlsym(handle, name) else {
                throw PoseEstimationError(
                    .runtimeIncompatible,
                    "pose runtime at \(path) has no \(name): it is not the MediaPipe 1.2.2 library "
                        + "this build expects. Run scripts/setup.sh to install the pinned one."
                )
            }
            return unsafeBitCast(address, to: Function.self)
        }
        return MediaPipeLibrary(
            errorFree: try symbol("MpErrorFree", as: MpErrorFreeFn.self),
            imageCreateFromUint8Data: try symbol("MpImageCreateFromUint8Data", as: MpImageCreateFromUint8DataFn.self),
            imageFree: try symbol("MpImageFree", as: MpImageFreeFn.self),
            poseLandmarkerCreate: try symbol("MpPoseLandmarkerCreate", as: MpPoseLandmarkerCreateFn.self),
            poseLandmarkerDetectImage: try symbol(
                "MpPoseLandmarkerDetectImage",
                as: MpPoseLandmarkerDetectImageFn.self
            ),
            poseLandmarkerDetectForVideo: try symbol(
                "MpPoseLandmarkerDetectForVideo",
                as: MpPoseLandmarkerDetectForVideoFn.self
            ),
            poseLandmarkerCloseResult: try symbol(
                "MpPoseLandmarkerCloseResult",
                as: MpPoseLandmarkerCloseResultFn.self
            ),
            poseLandmarkerClose: try symbol("MpPoseLandmarkerClose", as: MpPoseLandmarkerCloseFn.self),
            handLandmarkerCreate: try symbol("MpHandLandmarkerCreate", as: MpHandLandmarkerCreateFn.self),
            handLandmarkerDetectImage: try symbol(
                "MpHandLandmarkerDetectImage",
                as: MpHandLandmarkerDetectImageFn.self
            ),
            handLandmarkerDetectForVideo: try symbol(
                "MpHandLandmarkerDetectForVideo",
                as: MpHandLandmarkerDetectForVideoFn.self
            ),
            handLandmarkerCloseResult: try symbol(
                "MpHandLandmarkerCloseResult",
                as: MpHandLandmarkerCloseResultFn.self
            ),
            handLandmarkerClose: try symbol("MpHandLandmarkerClose", as: MpHandLandmarkerCloseFn.self)
        )
    }

    /// Calls a status function (`0` = OK, trailing `char** error_msg`), freeing the message.
    ///
    /// - Throws: `code`, with `context` and MediaPipe's own message, when the status is not OK.
    func check(
        _ code: PoseEstimationError.Code,
        _ context: @autoclosure () -> String,
        _ call: (UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32
    ) throws(PoseEstimationError) {
        var message: UnsafeMutablePointer<CChar>? = nil
        let status = call(&message)
        let text = message.map { String(cString: $0) }
        if let message { errorFree(message) }
        guard status == Int32(kMpOk) else {
            throw PoseEstimationError(code, "\(context()): \(text ?? "MediaPipe status \(status)")", status: status)
        }
    }
}
