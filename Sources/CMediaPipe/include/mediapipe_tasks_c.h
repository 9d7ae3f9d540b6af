// The few types of MediaPipe's Tasks C API (libmediapipe.so) that the pose and hand landmarkers need.
//
// No header ships with the library. These declarations are written from the ctypes declarations of
// the `mediapipe==1.2.2` wheel, which ships the same library (mediapipe/tasks/c/libmediapipe.so):
//   mediapipe/tasks/python/core/base_options_c.py              MpBaseOptions
//   mediapipe/tasks/python/core/mediapipe_c_utils.py           MpStatus, status + `char** error_msg` convention
//   mediapipe/tasks/python/components/containers/landmark_c.py MpLandmark(s), MpNormalizedLandmark(s)
//   mediapipe/tasks/python/components/containers/rect_c.py     MpRectF
//   mediapipe/tasks/python/vision/core/image.py                MpImageFormat, MpImageCreateFromUint8Data, MpImageFree
//   mediapipe/tasks/python/vision/core/image_processing_options_c.py  MpImageProcessingOptions
//   mediapipe/tasks/python/vision/core/vision_task_running_mode.py    running mode values
//   mediapipe/tasks/python/vision/pose_landmarker.py           MpPoseLandmarkerOptions, MpPoseLandmarkerResult, functions
//   mediapipe/tasks/python/components/containers/category_c.py MpCategory, MpCategories
//   mediapipe/tasks/python/vision/hand_landmarker.py           MpHandLandmarkerOptions, MpHandLandmarkerResult, functions
//
// The library is loaded at run time with dlopen (see PoseEstimation/MediaPipeLibrary.swift), so this
// header declares only types and function-pointer types, never functions: the package builds and
// tests without the library installed. Every status function returns an MpStatus (0 = OK) and takes a
// trailing `char** error_msg`; a non-NULL message must be freed with MpErrorFree.

#ifndef PTCOACH_MEDIAPIPE_TASKS_C_H
#define PTCOACH_MEDIAPIPE_TASKS_C_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

// MARK: - Status

/// MpStatus: absl::StatusCode values.
enum {
    kMpOk = 0,
    kMpCancelled = 1,
    kMpUnknown = 2,
    kMpInvalidArgument = 3,
    kMpDeadlineExceeded = 4,
    kMpNotFound = 5,
    kMpAlreadyExists = 6,
    kMpPermissionDenied = 7,
    kMpResourceExhausted = 8,
    kMpFailedPrecondition = 9,
    kMpAborted = 10,
    kMpOutOfRange = 11,
    kMpUnimplemented = 12,
    kMpInternal = 13,
    kMpUnavailable = 14,
    kMpDataLoss = 15,
    kMpUnauthenticated = 16,
};

// MARK: - Opaque handles

/// An MpImage owned by the library (created by MpImageCreate*, released with MpImageFree).
typedef struct MpImageInternal *MpImagePtr;
/// A pose landmarker task (created by MpPoseLandmarkerCreate, released with MpPoseLandmarkerClose).
typedef struct MpPoseLandmarkerInternal *MpPoseLandmarkerPtr;
/// A hand landmarker task (created by MpHandLandmarkerCreate, released with MpHandLandmarkerClose).
typedef struct MpHandLandmarkerInternal *MpHandLandmarkerPtr;

// MARK: - Base options

/// BaseOptions.Delegate.
enum {
    kMpDelegateDefault = 0,
    kMpDelegateCpu = 1,
    kMpDelegateGpu = 2,
};

/// The host system reported to the library (base_options.py `_HostSystem`).
enum {
    kMpHostSystemUnknown = 0,
    kMpHostSystemLinux = 1,
    kMpHostSystemMac = 2,
    kMpHostSystemWindows = 3,
};

struct MpBaseOptions {
    /// Model bundle bytes, or NULL to use `model_asset_path`.
    const char *model_asset_buffer;
    unsigned int model_asset_buffer_count;
    /// Path of the `.task` model bundle.
    const char *model_asset_path;
    /// File descriptor of the model bundle, or -1.
    int file_descriptor;
    int delegate;
    int host_environment;
    int host_system;
    const char *host_version;
    const char *ca_bundle_path;
    const char *app_id;
    const char *app_version;
};

// MARK: - Images

/// MpImageFormat (image.py `ImageFormat`).
enum {
    kMpImageFormatUnknown = 0,
    kMpImageFormatSrgb = 1,
    kMpImageFormatSrgba = 2,
    kMpImageFormatGray8 = 3,
};

struct MpRectF {
    float left;
    float top;
    float bottom;
    float right;
};

struct MpImageProcessingOptions {
    bool has_region_of_interest;
    struct MpRectF region_of_interest;
    int rotation_degrees;
};

// MARK: - Landmarks

/// A landmark in world coordinates (metres).
struct MpLandmark {
    float x;
    float y;
    float z;
    bool has_visibility;
    float visibility;
    bool has_presence;
    float presence;
    const char *name;
};

struct MpLandmarks {
    struct MpLandmark *landmarks;
    uint32_t landmarks_count;
};

/// A landmark in normalised image coordinates (x, y in [0, 1] of the width and height; z in the
/// scale of x).
struct MpNormalizedLandmark {
    float x;
    float y;
    float z;
    bool has_visibility;
    float visibility;
    bool has_presence;
    float presence;
    const char *name;
};

struct MpNormalizedLandmarks {
    struct MpNormalizedLandmark *landmarks;
    uint32_t landmarks_count;
};

// MARK: - Pose landmarker

/// Vision task running modes (vision_task_running_mode.py).
enum {
    kMpRunningModeImage = 1,
    kMpRunningModeVideo = 2,
    kMpRunningModeLiveStream = 3,
};

/// Filled by the detect functions; released with MpPoseLandmarkerCloseResult.
struct MpPoseLandmarkerResult {
    MpImagePtr *segmentation_masks;
    uint32_t segmentation_masks_count;
    struct MpNormalizedLandmarks *pose_landmarks;
    uint32_t pose_landmarks_count;
    struct MpLandmarks *pose_world_landmarks;
    uint32_t pose_world_landmarks_count;
};

/// The live-stream result callback: status, result, input image, timestamp in milliseconds.
typedef void (*MpPoseLandmarkerResultCallback)(int32_t status, const struct MpPoseLandmarkerResult *result,
                                               MpImagePtr image, int64_t timestamp_ms);

struct MpPoseLandmarkerOptions {
    struct MpBaseOptions base_options;
    int running_mode;
    int num_poses;
    float min_pose_detection_confidence;
    float min_pose_presence_confidence;
    float min_tracking_confidence;
    bool output_segmentation_masks;
    /// Only for kMpRunningModeLiveStream; NULL otherwise.
    MpPoseLandmarkerResultCallback result_callback;
};

// MARK: - Hand landmarker

/// A classification result: `index` and `category_name` of a label map entry, with its score.
struct MpCategory {
    int index;
    float score;
    char *category_name;
    char *display_name;
};

struct MpCategories {
    struct MpCategory *categories;
    uint32_t categories_count;
};

/// Filled by the detect functions; released with MpHandLandmarkerCloseResult. One entry per hand in each
/// array, in the same order (48 bytes on x86_64).
struct MpHandLandmarkerResult {
    /// The hand's handedness ("Left" / "Right") and its score.
    struct MpCategories *handedness;
    uint32_t handedness_count;
    /// 21 landmarks per hand, normalised to the image.
    struct MpNormalizedLandmarks *hand_landmarks;
    uint32_t hand_landmarks_count;
    /// 21 landmarks per hand in metres, centred on the hand.
    struct MpLandmarks *hand_world_landmarks;
    uint32_t hand_world_landmarks_count;
};

typedef void (*MpHandLandmarkerResultCallback)(int32_t status, const struct MpHandLandmarkerResult *result,
                                               MpImagePtr image, int64_t timestamp_ms);

/// 104 bytes on x86_64. C gets none of the C++ header's default values: every field must be set.
struct MpHandLandmarkerOptions {
    struct MpBaseOptions base_options;
    int running_mode;
    int num_hands;
    float min_hand_detection_confidence;
    float min_hand_presence_confidence;
    float min_tracking_confidence;
    /// Only for kMpRunningModeLiveStream; NULL otherwise.
    MpHandLandmarkerResultCallback result_callback;
};

// MARK: - Function types (resolved with dlsym)

typedef void (*MpErrorFreeFn)(char *error_msg);

typedef int (*MpImageCreateFromUint8DataFn)(int format, int width, int height, const uint8_t *data, int data_size,
                                            MpImagePtr *out_image, char **error_msg);
typedef void (*MpImageFreeFn)(MpImagePtr image);

typedef int (*MpPoseLandmarkerCreateFn)(struct MpPoseLandmarkerOptions *options, MpPoseLandmarkerPtr *out_landmarker,
                                        char **error_msg);
typedef int (*MpPoseLandmarkerDetectImageFn)(MpPoseLandmarkerPtr landmarker, MpImagePtr image,
                                             const struct MpImageProcessingOptions *options,
                                             struct MpPoseLandmarkerResult *out_result, char **error_msg);
typedef int (*MpPoseLandmarkerDetectForVideoFn)(MpPoseLandmarkerPtr landmarker, MpImagePtr image,
                                                const struct MpImageProcessingOptions *options, int64_t timestamp_ms,
                                                struct MpPoseLandmarkerResult *out_result, char **error_msg);
typedef int (*MpPoseLandmarkerDetectAsyncFn)(MpPoseLandmarkerPtr landmarker, MpImagePtr image,
                                             const struct MpImageProcessingOptions *options, int64_t timestamp_ms,
                                             char **error_msg);
typedef void (*MpPoseLandmarkerCloseResultFn)(struct MpPoseLandmarkerResult *result);
typedef int (*MpPoseLandmarkerCloseFn)(MpPoseLandmarkerPtr landmarker, char **error_msg);

typedef int (*MpHandLandmarkerCreateFn)(struct MpHandLandmarkerOptions *options, MpHandLandmarkerPtr *out_landmarker,
                                        char **error_msg);
typedef int (*MpHandLandmarkerDetectImageFn)(MpHandLandmarkerPtr landmarker, MpImagePtr image,
                                             const struct MpImageProcessingOptions *options,
                                             struct MpHandLandmarkerResult *out_result, char **error_msg);
typedef int (*MpHandLandmarkerDetectForVideoFn)(MpHandLandmarkerPtr landmarker, MpImagePtr image,
                                                const struct MpImageProcessingOptions *options, int64_t timestamp_ms,
                                                struct MpHandLandmarkerResult *out_result, char **error_msg);
typedef void (*MpHandLandmarkerCloseResultFn)(struct MpHandLandmarkerResult *result);
typedef int (*MpHandLandmarkerCloseFn)(MpHandLandmarkerPtr landmarker, char **error_msg);

#ifdef __cplusplus
}
#endif

#endif  // PTCOACH_MEDIAPIPE_TASKS_C_H
