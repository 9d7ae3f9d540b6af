import Testing

@testable import PoseKit

struct JSONValueTests {
    @Test(arguments: [
        // What Python's json.dumps sends for "Zoë 😀": a surrogate pair is one character.
        (#""Zo\u00eb \ud83d\ude00""#, "Zoë 😀"),
        (#""\uD83D\uDE00!""#, "😀!"),
        (#""a\u0000b""#, "a\u{0}b"),
        // A lone surrogate (high without low, low alone, high before another escape) is no character: U+FFFD.
        (#""\ud83d""#, "\u{FFFD}"),
        (#""\ude00x""#, "\u{FFFD}x"),
        (#""\ud83d\n""#, "\u{FFFD}\n"),
        (#""\ud83d\u0041""#, "\u{FFFD}A"),
    ])
    func escapesDecodeToTheCharactersTheyName(json: String, expected: String) throws {
        #expect(try JSONValue.parse(json) == .string(expected))
    }

    @Test(arguments: [#""\u12""#, #""\uZZZZ""#, #""\ud83d\u12""#])
    func truncatedOrNonHexEscapesAreSyntaxErrors(json: String) {
        #expect(throws: JSONSyntaxError.self) { try JSONValue.parse(json) }
    }

    @Test func anEmojiSurvivesAWriteAndARead() throws {
        let value = JSONValue.object(["name": .string("Zoë 😀\u{0}")])
        #expect(try JSONValue.parse(value.jsonText) == value)
    }
}
