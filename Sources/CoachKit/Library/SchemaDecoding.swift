import Foundation
import PoseKit

/// Reads a JSON file with `JSONDecoder` (an exercise definition, body or hand; a classifier model), turning a
/// `DecodingError` into one line that names the file, the field path (`formRules[2].max`) and what was wrong.
///
/// The file forms (``ExerciseDefinition/File``, ``HandExerciseDefinition/File``) are plain `Decodable` structs; what
/// JSON cannot say (ranges, fields that depend on each other) is checked after decoding, with a ``Problem``.
///
/// ```swift
/// let file = try SchemaDecoding.decode(ExerciseDefinition.File.self, from: text, file: path, what: "exercise")
/// let problem = SchemaDecoding.Problem(file: path, context: "exercise '\(file.id)': ")
/// guard file.angles.count > 0 else { throw problem("angles", "must be a non-empty array of angle names") }
/// ```
enum SchemaDecoding {
    /// Decodes `type` from a definition file's text.
    ///
    /// - Parameters:
    ///   - file: The file name used in error messages.
    ///   - what: What the file defines ("exercise", "hand exercise"), for messages.
    /// - Throws: ``CoachKitError`` `.invalidDefinition`, naming the file and the field that is wrong.
    static func decode<T: Decodable>(
        _ type: T.Type,
        from text: String,
        file: String,
        what: String
    ) throws(CoachKitError) -> T {
        do {
            return try JSONDecoder().decode(T.self, from: Data(text.utf8))
        } catch let error as DecodingError {
            throw Self.error(error, text: text, file: file, what: what)
        } catch {
            throw CoachKitError(.invalidDefinition, "\(error)", file: file, cause: error)
        }
    }

    /// Decodes a classifier model file (a body or a hand one) from its text.
    ///
    /// - Parameters:
    ///   - notAModel: The error for JSON that is not an object.
    ///   - fail: Makes the error of a message (adding the model file).
    /// - Throws: ``CoachKitError`` in one line: the text is not JSON, `notAModel`, or the field that is wrong.
    static func decodeModel<T: Decodable>(
        _ type: T.Type,
        from text: String,
        notAModel: CoachKitError,
        fail: (String) -> CoachKitError
    ) throws(CoachKitError) -> T {
        do {
            return try JSONDecoder().decode(T.self, from: Data(text.utf8))
        } catch let error as DecodingError {
            switch Self.failure(error, in: text) {
            case .notJSON(let cause):
                throw fail("not a classifier model (not JSON: \(cause)); give a file written by `ptcoach train --out`")
            case .notAnObject:
                throw notAModel
            case .field(let path, let message):
                throw fail("\"\(path)\" \(message)")
            }
        } catch {
            throw fail("\(error)")
        }
    }

    /// The checks after decoding: builds the error for a field, prefixed with the exercise it is in.
    struct Problem {
        let file: String
        /// "exercise 'squat': ", or empty before the id is known.
        var context: String

        /// The error for `field` (a path such as `hold.conditions[0].max`, or empty for the whole file).
        func callAsFunction(_ field: String, _ message: String) -> CoachKitError {
            let prefix = field.isEmpty ? context : "\(context)field \"\(field)\" "
            return CoachKitError(.invalidDefinition, prefix + message, file: file)
        }

        /// `value`, unless it is empty.
        func nonEmpty(_ value: String, _ field: String) throws(CoachKitError) -> String {
            guard !value.isEmpty else { throw self(field, "must be a non-empty string (got \"\")") }
            return value
        }

        /// An id: lower-case letters, digits and '-'.
        func id(_ id: String) throws(CoachKitError) -> String {
            guard !id.isEmpty, id.allSatisfy({ ($0.isLetter && $0.isLowercase) || $0.isNumber || $0 == "-" }) else {
                throw self("id", "must be lower-case letters, digits and '-' (got '\(id)')")
            }
            return id
        }
    }

    // MARK: - Messages

    /// What a decoding error says, in words.
    enum Failure {
        /// The text is not JSON; `cause` is the parser's error, which says where.
        case notJSON(cause: any Error)
        /// The text is JSON, but not an object.
        case notAnObject
        /// A field is wrong: its path (`formRules[0].max`) and what is wrong with it, with the value found.
        case field(path: String, message: String)
    }

    /// What `error` says about `text`: the path from its `codingPath`, the value found there (read again from the
    /// text, as `JSONDecoder` does not keep it) and what was expected.
    static func failure(_ error: DecodingError, in text: String) -> Failure {
        let json: JSONFragment
        do {
            json = try JSONDecoder().decode(JSONFragment.self, from: Data(text.utf8))
        } catch {
            // Foundation's parser error says where the text stops being JSON.
            return .notJSON(cause: Self.syntaxError(error))
        }
        func found(_ path: [any CodingKey]) -> String {
            json.at(path).map { " (got \($0.jsonText))" } ?? ""
        }
        switch error {
        case .keyNotFound(let key, let context):
            return .field(path: Self.path(context.codingPath + [key]), message: "is missing")
        case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
            guard !context.codingPath.isEmpty else { return .notAnObject }
            return .field(
                path: Self.path(context.codingPath),
                message: "must be \(Self.expected(type))\(found(context.codingPath))"
            )
        case .dataCorrupted(let context):
            guard !context.codingPath.isEmpty else { return .notJSON(cause: Self.syntaxError(error)) }
            // ``OneOf``'s "must be one of …" gets the value found; ``Closed``'s "is not a field …" does not need it.
            let value = context.debugDescription.hasPrefix("must be") ? found(context.codingPath) : ""
            return .field(path: Self.path(context.codingPath), message: context.debugDescription + value)
        @unknown default:
            return .notJSON(cause: error)
        }
    }

    /// Where the text stops being JSON, as Foundation's parser says it (the error under `DecodingError`'s).
    private static func syntaxError(_ error: any Error) -> any Error {
        guard case DecodingError.dataCorrupted(let context) = error, let cause = context.underlyingError else {
            return error
        }
        return cause
    }

    /// A coding key for a path read by hand.
    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ name: String) { stringValue = name }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// The definition error for a decoding error: one line naming the file, the exercise (when its id can be read)
    /// and the field.
    private static func error(_ error: DecodingError, text: String, file: String, what: String) -> CoachKitError {
        let id = JSONFragment.parse(text)?.at([Key("id")])?.stringValue ?? ""
        let problem = Problem(file: file, context: id.isEmpty ? "" : "\(what) '\(id)': ")
        switch failure(error, in: text) {
        case .notJSON(let cause):
            return CoachKitError(.invalidDefinition, "not valid JSON (\(cause))", file: file, cause: cause)
        case .notAnObject:
            return problem(
                "",
                "the file must hold one JSON object with \(Self.article(what)) definition (see SCHEMA.md)"
            )
        case .field(let path, let message):
            return problem(path, message)
        }
    }

    /// `rules[2].max` for the coding path rules → 2 → max.
    private static func path(_ codingPath: [any CodingKey]) -> String {
        var path = ""
        for key in codingPath {
            if let index = key.intValue {
                path += "[\(index)]"
            } else {
                path += (path.isEmpty ? "" : ".") + key.stringValue
            }
        }
        return path
    }

    /// What a field of `type` must be, in words.
    private static func expected(_ type: Any.Type) -> String {
        switch type {
        case is Double.Type: "a number"
        case is Int.Type: "a whole number"
        case is String.Type: "a string"
        case is Bool.Type: "true or false"
        default: String(describing: type).hasPrefix("Array") ? "an array" : "an object"
        }
    }

    private static func article(_ what: String) -> String {
        ("aeiou".contains(what.first ?? "x") ? "an " : "a ") + what
    }
}

// MARK: - Field types

/// One of the names of `E`: decodes like `E`, with an error listing the names.
struct OneOf<E: RawRepresentable & CaseIterable>: Decodable where E.RawValue == String {
    var value: E

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        guard let name = try? container.decode(String.self), let value = E(rawValue: name) else {
            let names = E.allCases.map(\.rawValue)
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription: names.count == 1
                    ? "must be \"\(names[0])\"" : "must be one of \(names.joined(separator: ", "))"
            )
        }
        self.value = value
    }
}

/// A block of a definition whose fields are all known: a field not among its `CodingKeys` is an error (a typing
/// mistake would otherwise be ignored silently).
protocol ClosedSchema: Decodable {
    associatedtype CodingKeys: CodingKey & CaseIterable
    /// The block, for messages: "the schema", "the motion block".
    static var blockName: String { get }
}

/// A ``ClosedSchema`` block, checked for unknown fields before it is decoded.
struct Closed<T: ClosedSchema>: Decodable {
    var value: T

    init(from decoder: any Decoder) throws {
        let keys = try decoder.container(keyedBy: AnyKey.self).allKeys.map(\.stringValue)
        let known = T.CodingKeys.allCases.map(\.stringValue).sorted()
        if let unknown = keys.sorted().first(where: { !known.contains($0) }) {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: decoder.codingPath + [AnyKey(stringValue: unknown)],
                    debugDescription:
                        "is not a field of \(T.blockName) (known: \(known.joined(separator: ", ")))"
                )
            )
        }
        value = try T(from: decoder)
    }

    /// Any key, for listing the keys of an object.
    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { return nil }
    }
}
