import ArgumentParser
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

        func run() async throws {
            guard role == "therapist" else {
                throw CLIError("--role must be therapist: patients join with the code their therapist gives them")
            }
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
                print("added therapist \(user.name) (login \(login)); log in at /clinic.html")
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
                for therapist in try await store.therapists() {
                    print("therapist \(therapist.name) (\(therapist.login ?? "-"))")
                    for patient in try await store.patients(therapistID: therapist.id) {
                        print("  patient \(patient.name) (\(patient.login ?? "invited, not joined"))")
                    }
                }
            } catch {
                throw CLIError(error.description)
            }
        }
    }
}
