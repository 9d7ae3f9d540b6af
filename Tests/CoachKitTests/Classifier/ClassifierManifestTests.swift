import CoachKit
import Testing

struct ClassifierManifestTests {
    @Test func parsesRowsAndResolvesPathsAgainstTheManifestFolder() throws {
        let text =
            "path,label\n../tracks/a.jsonl,good\r\n\n\"../tracks/b, c.jsonl\",\"bad \"\"form\"\"\"\n/abs/d.jsonl, good \n"
        let manifest = try ClassifierManifest(text: text, path: "data/manifests/m.csv")
        #expect(
            manifest.entries.map(\.path) == [
                "data/manifests/../tracks/a.jsonl", "data/manifests/../tracks/b, c.jsonl", "/abs/d.jsonl",
            ]
        )
        #expect(manifest.entries.map(\.label) == ["good", "bad \"form\"", "good"])
        #expect(manifest.entries.map(\.line) == [2, 4, 5])
        #expect(manifest.labels == ["bad \"form\"", "good"])
    }

    @Test func bareManifestNameResolvesToBarePaths() throws {
        let manifest = try ClassifierManifest(text: "\u{FEFF}path,label\nx.jsonl,a\n", path: "m.csv")
        #expect(manifest.entries[0].path == "x.jsonl")
    }

    @Test(arguments: [
        ("", "m.csv: the manifest is empty"),
        ("path,label\n", "m.csv: the manifest has a header but no rows"),
        ("file,class\na.jsonl,x\n", "m.csv:1: the header must be `path,label`"),
        ("path,label\na.jsonl\n", "m.csv:2: expected two fields"),
        ("path,label\na.jsonl,\n", "m.csv:2: the label of `a.jsonl` is empty"),
        ("path,label\n\"a.jsonl,x\n", "m.csv:2: an unterminated quoted field"),
        ("path,label\n,x\n", "m.csv:2: the path is empty"),
    ])
    func malformedManifestsNameTheLine(text: String, expected: String) {
        #expect {
            try ClassifierManifest(text: text, path: "m.csv")
        } throws: { error in
            guard let error = error as? CoachKitError else { return false }
            return error.code == .malformedManifest && error.message.hasPrefix(expected)
        }
    }
}
