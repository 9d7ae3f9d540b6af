import ArgumentParser
import CoachPipeline
import CoachServer
import CoachStore
import Foundation

/// `ptcoach users`: the clinic's accounts, from the command line.
struct UsersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "users",
        abstract: "Manage the clinic's accounts (therapists invite their patients from the web pages).",
        subcommands: [Add.self, List.self]
    )

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add a therapist account.",
            discussion: """
                Example: echo 'a long passphrase' | ptcoach users add --role therapist --name "Dr Ada Lee" \
                --login ada@clinic.example --password-stdin
                """
        )

        @Option(help: "The role; only therapist (patients join with the code their therapist gives them).")
        var role: String

        @Option(help: "The name shown to patients and in exports.")
        var name: String

        @Option(help: "What the person logs in with (an e-mail address or a name).")
        var login: String

        @Flag(help: "Read the password from the first line of standard input (otherwise it is asked for).")
        var passwordStdin = false

        @OptionGroup var storage: StoreOptions

        func validate() throws {
            guard role == "therapist" else {
                throw ValidationError(
                    "--role must be therapist: patients join with the code their therapist gives them"
                )
            }
            for (option, value) in [("--name", name), ("--login", login)]
            where value.unicodeScalars.contains(where: { CharacterSet.controlCharacters.contains($0) }) {
                throw ValidationError("\(option) has a line break or control character; give it on one line")
            }
            // Without a terminal there is nobody to ask: the password would be read as empty.
            guard passwordStdin || isatty(STDIN_FILENO) != 0 else {
                throw ValidationError(
                    "no terminal to ask the password on: pipe it with --password-stdin "
                        + "(echo 'a long passphrase' | ptcoach users add … --password-stdin)"
                )
            }
        }

        func run() async throws {
            let password: String
            if passwordStdin {
                password = readLine(strippingNewline: true) ?? ""
            } else {
                guard let typed = getpass("Password for \(login): ") else { throw CLIError("no password given") }
                password = String(cString: typed)
            }
            let store = try await storage.open()
            do {
                let user = try await ClinicAccounts.addTherapist(
                    name: name,
                    login: login,
                    password: password,
                    store: store
                )
                print(
                    "added therapist \(Terminal.safe(user.name)) (login \(Terminal.safe(login))); log in at /clinic.html"
                )
            } catch {
                throw CLIError(error.description)
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the therapists and their patients.")

        @OptionGroup var storage: StoreOptions

        func run() async throws {
            let store = try await storage.open()
            do {
                let therapists = try await store.therapists()
                guard !therapists.isEmpty else {
                    print(
                        "no accounts yet in \(storage.description): make the first therapist with "
                            + "`ptcoach users add --role therapist --name NAME --login LOGIN \(storage.commandLine)`"
                    )
                    return
                }
                // Names are the patients' own words, typed in a browser: never raw control characters on a terminal.
                for therapist in therapists {
                    print("therapist \(Terminal.safe(therapist.name)) (\(Terminal.safe(therapist.login ?? "-")))")
                    for patient in try await store.patients(therapistID: therapist.id) {
                        print(
                            "  patient \(Terminal.safe(patient.name)) (\(Terminal.safe(patient.login ?? "invited, not joined")))"
                        )
                    }
                }
            } catch {
                throw CLIError(error.description)
            }
        }
    }
}

/// Text from users made safe to print on a terminal: line breaks, escapes and other control characters shown as
/// `\u{…}`, so a name cannot add lines or move the cursor.
enum Terminal {
    static func safe(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            if CharacterSet.controlCharacters.contains(scalar) || scalar.properties.generalCategory == .format {
                out += "\\u{\(String(scalar.value, radix: 16))}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
