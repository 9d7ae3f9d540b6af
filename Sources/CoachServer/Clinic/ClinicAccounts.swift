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
        guard (1...120).contains(name.count) else { throw StoreError("the name must be 1 to 120 characters") }
        guard (3...120).contains(login.count), !login.contains(where: \.isWhitespace) else {
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
