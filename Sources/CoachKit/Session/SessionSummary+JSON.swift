public import Foundation

extension SessionSummary {
    /// The `ptcoach analyze --json` object, also saved and sent by the live coach: the summary, with the file
    /// name first and the prescription (repetitions, hold at each peak) when given. Non-finite numbers are written
    /// as the strings "nan", "inf" and "-inf".
    public func jsonText(
        file: String,
        prescribedReps: Int? = nil,
        prescribedHoldSeconds: Double? = nil
    ) throws -> String {
        let data = try JSONEncoder.coach().encode(self)
        var text = String(decoding: data, as: UTF8.self)
        // Put the file name first for readers that scan many outputs.
        let fileEncoder = JSONEncoder()
        fileEncoder.outputFormatting = [.withoutEscapingSlashes]
        let escaped = String(decoding: try fileEncoder.encode(file), as: UTF8.self)
        let prescribed =
            (prescribedHoldSeconds.map { "\"prescribedHoldSeconds\":\($0)," } ?? "")
            + (prescribedReps.map { "\"prescribedReps\":\($0)," } ?? "")
        text = "{\"file\":\(escaped),\(prescribed)" + text.dropFirst()
        return text
    }

    /// Reads a summary that ``jsonText(file:prescribedReps:prescribedHoldSeconds:)`` wrote.
    public init(jsonText: String) throws {
        self = try JSONDecoder.coach().decode(SessionSummary.self, from: Data(jsonText.utf8))
    }
}

extension JSONEncoder {
    /// The coach's JSON, as `ptcoach analyze --json` writes it and the live coach sends and saves it: sorted keys,
    /// slashes unescaped, non-finite numbers as the strings "nan", "inf" and "-inf".
    public static func coach() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "inf",
            negativeInfinity: "-inf",
            nan: "nan"
        )
        return encoder
    }
}

extension JSONDecoder {
    /// Reads what ``Foundation/JSONEncoder/coach()`` wrote.
    public static func coach() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(
            positiveInfinity: "inf",
            negativeInfinity: "-inf",
            nan: "nan"
        )
        return decoder
    }
}

extension CoachingSession.Configuration {
    /// The settings of an analysis of frames `width`×`height` pixels: the same for `ptcoach analyze` (its
    /// counting and drawing passes) and the live coach, so the same frames give the same repetitions and cues.
    public static func analysis(
        exercise: ExerciseDefinition?,
        library: [ExerciseDefinition],
        width: Double,
        height: Double
    ) -> Self {
        .init(
            exercise: exercise,
            library: library,
            frameWidth: width,
            frameHeight: height,
            emitsPoseEvents: false
        )
    }
}
