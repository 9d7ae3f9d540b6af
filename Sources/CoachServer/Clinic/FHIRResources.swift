import Foundation

/// The FHIR R4 shapes ``FHIRWriter`` writes: a `Bundle` of type `collection` whose entries are a `Patient` and a
/// `Practitioner`, `Observation`s, `ServiceRequest`s and a `CarePlan`. Only the fields PT Coach fills; an absent one
/// is left out.
struct FHIRBundle: Encodable {
    var resourceType = "Bundle"
    var type = "collection"
    var timestamp: String
    var entry: [FHIREntry]

    /// The bundle as compact JSON, keys sorted.
    var jsonText: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Strings, integers and finite numbers only (a peak angle is measured, so finite): encoding cannot fail.
        guard let data = try? encoder.encode(self) else { preconditionFailure("the FHIR bundle did not encode") }
        return String(decoding: data, as: UTF8.self)
    }
}

/// A bundle entry: the resource and its RESTful full URL (so that `Type/id` references resolve in the bundle).
struct FHIREntry: Encodable {
    var fullUrl: String
    var resource: FHIRResource

    init(_ resource: FHIRResource, type: String, id: String) {
        fullUrl = "https://ptcoach.invalid/fhir/\(type)/\(id)"
        self.resource = resource
    }
}

enum FHIRResource: Encodable {
    case person(FHIRPerson)
    case observation(FHIRObservation)
    case serviceRequest(FHIRServiceRequest)
    case carePlan(FHIRCarePlan)

    func encode(to encoder: any Encoder) throws {
        switch self {
        case .person(let resource): try resource.encode(to: encoder)
        case .observation(let resource): try resource.encode(to: encoder)
        case .serviceRequest(let resource): try resource.encode(to: encoder)
        case .carePlan(let resource): try resource.encode(to: encoder)
        }
    }
}

/// A `Patient` or a `Practitioner`: an id and a name.
struct FHIRPerson: Encodable {
    var resourceType: String
    var id: String
    var name: [FHIRText]
}

struct FHIRObservation: Encodable {
    var resourceType = "Observation"
    var id: String
    var status = "final"
    var category: [FHIRConcept]
    var code: FHIRConcept
    var subject: FHIRReference
    var effectiveDateTime: String
    var note: [FHIRText]
    var valueInteger: Int?
    var valueQuantity: FHIRQuantity?
    var method: FHIRConcept?
    var bodySite: FHIRConcept?
}

struct FHIRServiceRequest: Encodable {
    var resourceType = "ServiceRequest"
    var id: String
    var status = "active"
    var intent = "order"
    var code: FHIRConcept
    var subject: FHIRReference
    var authoredOn: String
    var occurrenceTiming: Timing
    var quantityQuantity: FHIRQuantity
    var orderDetail: [FHIRConcept]
    var patientInstruction: String
    var requester: FHIRReference?

    /// Days a week: frequency N per 1 week.
    struct Timing: Encodable {
        var `repeat`: Repeat
        var code: FHIRText
    }

    struct Repeat: Encodable {
        var frequency: Int
        var period = 1
        var periodUnit = "wk"
    }
}

struct FHIRCarePlan: Encodable {
    var resourceType = "CarePlan"
    var id: String
    var status = "active"
    var intent = "plan"
    var title: String
    var description: String
    var subject: FHIRReference
    var created: String
    var activity: [Activity]
    var author: FHIRReference?

    struct Activity: Encodable { var reference: FHIRReference }
}

struct FHIRText: Encodable { var text: String }

struct FHIRReference: Encodable {
    var reference: String
    init(_ type: String, _ id: String) { reference = "\(type)/\(id)" }
}

struct FHIRCoding: Encodable {
    var system: String
    var code: String
    var display: String
    init(_ system: String, _ code: String, _ display: String) {
        (self.system, self.code, self.display) = (system, code, display)
    }
}

struct FHIRConcept: Encodable {
    var coding: [FHIRCoding]
    var text: String
    init(_ coding: [FHIRCoding], text: String) { (self.coding, self.text) = (coding, text) }
}

struct FHIRQuantity: Encodable {
    var value: Double
    var unit: String
    var system = "http://unitsofmeasure.org"
    var code: String
    init(_ value: Double, unit: String, code: String) { (self.value, self.unit, self.code) = (value, unit, code) }
}
