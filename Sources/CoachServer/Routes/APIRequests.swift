import CoachKit
import Foundation
public import Hummingbird
import NIOCore

/// A JSON body a route reads with `request.decode(as:context:)`: when it cannot be read, the answer is 400 with
/// what to send (``APIRequestDecoder``).
protocol APIRequestBody: Decodable, Sendable {
    /// What to send instead of a body whose `field` (or, `nil`, the whole body) could not be read.
    static func problem(field: String?) -> String
}

/// The context's request decoder: JSON, and a body that is not what the route reads is one line saying what to send
/// (the route's ``APIRequestBody/problem(field:)``) rather than the decoder's words.
public struct APIRequestDecoder: RequestDecoder {
    public func decode<T: Decodable>(
        _ type: T.Type,
        from request: Request,
        context: some RequestContext
    ) async throws -> T {
        let buffer = try await request.body.collect(upTo: context.maxUploadSize)
        do {
            return try JSONDecoder.coach().decode(T.self, from: Data(buffer.readableBytesView))
        } catch let error as DecodingError {
            let body = T.self as? any APIRequestBody.Type
            switch error {
            case .dataCorrupted(let context) where context.codingPath.isEmpty:
                throw HTTPError(.badRequest, message: "the body is not valid JSON; send a JSON object")
            case .typeMismatch(_, let context) where context.codingPath.isEmpty:
                throw HTTPError(.badRequest, message: body?.problem(field: nil) ?? "send a JSON object")
            case .keyNotFound(let key, let context):
                let field = (context.codingPath.first ?? key).stringValue
                throw HTTPError(.badRequest, message: body?.problem(field: field) ?? "\"\(field)\" is missing")
            case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
                let field = context.codingPath.first?.stringValue
                throw HTTPError(.badRequest, message: body?.problem(field: field) ?? "the body could not be read")
            @unknown default:
                throw HTTPError(.badRequest, message: body?.problem(field: nil) ?? "the body could not be read")
            }
        }
    }
}

/// `POST /api/login`.
struct LoginRequest: APIRequestBody {
    var login: String
    var password: String

    static func problem(field: String?) -> String { "send {\"login\": …, \"password\": …}" }
}

/// `POST /api/join`: an invitation code, the login and password chosen.
struct JoinRequest: APIRequestBody {
    var code: String
    var login: String
    var password: String

    static func problem(field: String?) -> String { "send {\"code\": …, \"login\": …, \"password\": …}" }
}

/// `POST /api/patients`.
struct NewPatientRequest: APIRequestBody {
    var name: String

    static func problem(field: String?) -> String {
        "send {\"name\": …} with the patient's name (1 to 120 characters)"
    }
}

/// `PUT /api/patients/ID/programme`: the days a week and the exercises' prescriptions.
struct ProgrammeRequest: APIRequestBody {
    var daysPerWeek: Int?
    var items: [Prescription]?

    static func problem(field: String?) -> String {
        switch field {
        case "daysPerWeek": "\"daysPerWeek\" must be 1 to 7"
        case "items": "\"items\" must list 1 to 30 exercises, each a valid prescription"
        default: "send {\"daysPerWeek\": 1 to 7, \"items\": [1 to 30 prescriptions]}"
        }
    }

    /// The days a week and the items, checked.
    ///
    /// - Throws: `HTTPError` 400 naming the field.
    func validated() throws -> (daysPerWeek: Int, items: [Prescription]) {
        guard let daysPerWeek, (1...7).contains(daysPerWeek) else {
            throw HTTPError(.badRequest, message: "\"daysPerWeek\" must be 1 to 7")
        }
        guard let items, (1...30).contains(items.count) else {
            throw HTTPError(.badRequest, message: "\"items\" must list 1 to 30 exercises")
        }
        return (daysPerWeek, items)
    }
}

/// `POST /api/sessions/ID/rating`: pain and difficulty, 0 to 10, each optional.
struct RatingRequest: APIRequestBody {
    var pain: Int?
    var difficulty: Int?

    static func problem(field: String?) -> String {
        "\"\(field ?? "pain")\" must be a whole number from 0 to 10"
    }

    /// - Throws: `HTTPError` 400 for a rating out of 0…10.
    func validate() throws {
        for (key, value) in [("pain", pain), ("difficulty", difficulty)] {
            if let value, !(0...10).contains(value) {
                throw HTTPError(.badRequest, message: Self.problem(field: key))
            }
        }
    }
}
