import Testing

@testable import CoachServer

struct TypedTextTests {
    @Test(arguments: ["nul\u{0}byte", "\u{0}", "two\nlines", "tab\there", "esc\u{1B}[31m", "del\u{7F}", "c1\u{85}"])
    func controlCharactersAreRefusedNotCut(text: String) {
        #expect(TypedText.lineProblem(text, field: "the name", characters: 1...120)?.contains("control") == true)
    }

    @Test(arguments: ["Zoë 😀", "Pat O'Neil", "<b>Pat</b>", "李小龍"])
    func printableNamesAreKept(text: String) {
        #expect(TypedText.lineProblem(text, field: "the name", characters: 1...120) == nil)
    }

    @Test func lengthsAreCountedInCharacters() {
        #expect(
            TypedText.lineProblem("", field: "the name", characters: 1...120) == "the name must be 1 to 120 characters"
        )
        #expect(TypedText.lineProblem(String(repeating: "😀", count: 120), field: "x", characters: 1...120) == nil)
        #expect(TypedText.lineProblem(String(repeating: "a", count: 121), field: "x", characters: 1...120) != nil)
    }
}
