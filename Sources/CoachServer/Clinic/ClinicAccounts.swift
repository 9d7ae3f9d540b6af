public import CoachStore
import HummingbirdBcrypt

/// Accounts made outside the web pages: the first therapist (`ptcoach users add`).
public enum ClinicAccounts {
    /// Adds a therapist who logs in with `login` and `password`; throws a one-line error when either is refused.
    public static func addTherapist(
        name: String,
        login: String,
        password: String,
        store: any ClinicStore,
        bcryptCost: UInt8 = 12
    ) async throws(StoreError) -> User {
        let name = name.trimmed
        let login = login.trimmed
        if let problem = TypedText.lineProblem(name, field: "the name", characters: 1...120) {
            throw StoreError(problem)
        }
        if let problem = TypedText.lineProblem(login, field: "the login", characters: 3...120) {
            throw StoreError(problem)
        }
        guard !login.contains(where: \.isWhitespace) else {
            throw StoreError("the login must be 3 to 120 characters, without spaces")
        }
        if let problem = ClinicAuth.passwordProblem(password) { throw StoreError(problem) }
        let user = User(
            role: .therapist,
            name: name,
            login: login,
            passwordHash: Bcrypt.hash(password, cost: bcryptCost),
            therapistID: nil
        )
        try await store.add(user)
        return user
    }
}
