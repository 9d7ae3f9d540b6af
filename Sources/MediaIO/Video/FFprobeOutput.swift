import Foundation

/// What `ffprobe -of json -show_streams -show_format` prints, as far as ``VideoInfo`` reads it.
struct FFprobeOutput: Decodable {
    var format: Format?
    var streams: [Stream]?

    struct Format: Decodable {
        var formatName: String?
        var duration: Number?
        var startTime: Number?

        enum CodingKeys: String, CodingKey {
            case formatName = "format_name"
            case duration
            case startTime = "start_time"
        }
    }

    struct Stream: Decodable {
        var codecType: String?
        var codecName: String?
        var width: Int?
        var height: Int?
        var disposition: Disposition?
        var sideDataList: [SideData]?
        var tags: [String: String]?
        var avgFrameRate: String?
        var rFrameRate: String?
        var duration: Number?
        var nbFrames: Number?
        var startTime: Number?

        enum CodingKeys: String, CodingKey {
            case codecType = "codec_type"
            case codecName = "codec_name"
            case width, height, disposition
            case sideDataList = "side_data_list"
            case tags
            case avgFrameRate = "avg_frame_rate"
            case rFrameRate = "r_frame_rate"
            case duration
            case nbFrames = "nb_frames"
            case startTime = "start_time"
        }
    }

    struct Disposition: Decodable {
        var attachedPic: Int?

        enum CodingKeys: String, CodingKey { case attachedPic = "attached_pic" }
    }

    struct SideData: Decodable {
        var rotation: Double?
    }

    /// A number ffprobe writes as a string (`"10.010000"`) or as a number; `nil` when it is neither, or not finite.
    struct Number: Decodable {
        var value: Double?

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let number = try? container.decode(Double.self) {
                value = number
            } else if let text = try? container.decode(String.self) {
                value = Double(text)
            }
            if let value, !value.isFinite { self.value = nil }
        }
    }
}
