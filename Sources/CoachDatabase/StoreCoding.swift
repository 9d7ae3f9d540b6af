import CoachKit
import CoachStore
import Foundation

/// How the stores write their JSON columns (a repetition, a programme's items) and read them back, with the error
/// a user sees when one cannot be read: one place for both databases.
enum StoreCoding {
    static func json(_ repetition: Repetition) throws(StoreError) -> String {
        do {
            return String(decoding: try JSONEncoder.coach().encode(repetition), as: UTF8.self)
        } catch {
            throw StoreError("repetition \(repetition.index) cannot be encoded", cause: error)
        }
    }

    static func repetitions(_ texts: [String], setID: String) throws(StoreError) -> [Repetition] {
        do {
            let decoder = JSONDecoder.coach()
            return try texts.map { try decoder.decode(Repetition.self, from: Data($0.utf8)) }
        } catch {
            throw StoreError("a saved repetition of set \(setID) cannot be read", cause: error)
        }
    }

    static func json(_ items: [Prescription]) throws(StoreError) -> String {
        do {
            return String(decoding: try JSONEncoder.coach().encode(items), as: UTF8.self)
        } catch {
            throw StoreError("the programme cannot be encoded", cause: error)
        }
    }

    static func json(_ prescription: Prescription?) throws(StoreError) -> String? {
        guard let prescription else { return nil }
        do {
            return String(decoding: try JSONEncoder.coach().encode(prescription), as: UTF8.self)
        } catch {
            throw StoreError("the set's prescription cannot be encoded", cause: error)
        }
    }

    /// A set's saved prescription; `nil` when none was saved or it can no longer be read (the set itself stands).
    static func prescription(_ text: String?) -> Prescription? {
        text.flatMap { try? JSONDecoder.coach().decode(Prescription.self, from: Data($0.utf8)) }
    }

    /// A saved practice mark: an unknown one is an error, not a default.
    static func practice(_ text: String?, setID: String) throws(StoreError) -> SetRecord.Practice? {
        guard let text else { return nil }
        guard let practice = SetRecord.Practice(rawValue: text) else {
            throw StoreError("set \(setID) has an unknown practice mark '\(text)'")
        }
        return practice
    }

    /// A user's role as the database holds it: one this server does not know is an error (a database written by
    /// a newer version, or edited by hand), never a guess.
    static func role(_ text: String, userID: String) throws(StoreError) -> Role {
        guard let role = Role(rawValue: text) else {
            throw StoreError(
                "user \(userID) has an unknown role '\(text)' in the database; this version knows therapist and "
                    + "patient (was the database written by a newer ptcoach?)"
            )
        }
        return role
    }

    /// A set's status as the database holds it: one this server does not know is an error, never a guess.
    static func status(_ text: String, setID: String) throws(StoreError) -> SetRecord.Status {
        guard let status = SetRecord.Status(rawValue: text) else {
            throw StoreError(
                "set \(setID) has an unknown status '\(text)' in the database; this version knows "
                    + "open, completed and interrupted (was the database written by a newer ptcoach?)"
            )
        }
        return status
    }

    static func programme(_ found: Programme, itemsJSON: String) throws(StoreError) -> Programme {
        var programme = found
        do {
            programme.items = try JSONDecoder.coach().decode([Prescription].self, from: Data(itemsJSON.utf8))
            return programme
        } catch {
            throw StoreError("the saved programme of patient \(found.patientID) cannot be read", cause: error)
        }
    }
}
