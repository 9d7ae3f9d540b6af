import CoachKit
public import CoachStore
public import Foundation
import Logging
import PostgresNIO

// The accounts: users (therapists and patients), login sessions and invitations.
extension PostgresClinicStore {
    public func add(_ user: User) async throws(StoreError) {
        if let login = user.login, try await self.user(login: login) != nil {
            throw StoreError("the login \(login) is taken; choose another")
        }
        try await run("save the account") { client, logger in
            try await client.query(
                """
                INSERT INTO app_user (id, role, name, login, password_hash, therapist_id, created_at)
                VALUES (\(user.id), \(user.role.rawValue), \(user.name), \(user.login?.lowercased()), \(user.passwordHash),
                    \(user.therapistID), \(user.createdAt))
                """,
                logger: logger
            )
        }
    }

    public func user(id: String) async throws(StoreError) -> User? {
        try await users("read the account", "SELECT * FROM app_user WHERE id = $1", Self.binds(id)).first
    }

    public func user(login: String) async throws(StoreError) -> User? {
        try await users("read the account", "SELECT * FROM app_user WHERE login = $1", Self.binds(login.lowercased()))
            .first
    }

    public func patients(therapistID: String) async throws(StoreError) -> [User] {
        try await users(
            "read the patients",
            "SELECT * FROM app_user WHERE therapist_id = $1 AND role = 'patient' ORDER BY lower(name)",
            Self.binds(therapistID)
        )
    }

    public func therapists() async throws(StoreError) -> [User] {
        try await users(
            "read the therapists",
            "SELECT * FROM app_user WHERE role = 'therapist' ORDER BY lower(name)",
            PostgresBindings()
        )
    }

    public func add(_ session: LoginSession) async throws(StoreError) {
        try await run("save the login") { client, logger in
            try await client.query("DELETE FROM login_session WHERE expires_at < \(session.createdAt)", logger: logger)
            try await client.query(
                """
                INSERT INTO login_session (token_hash, user_id, csrf_token, created_at, expires_at)
                VALUES (\(session.tokenHash), \(session.userID), \(session.csrfToken), \(session.createdAt),
                    \(session.expiresAt))
                """,
                logger: logger
            )
        }
    }

    public func loginSession(tokenHash: String, at date: Date) async throws(StoreError) -> LoginSession? {
        try await run("read the login") { client, logger in
            let rows = try await client.query(
                """
                SELECT token_hash, user_id, csrf_token, created_at, expires_at FROM login_session
                WHERE token_hash = \(tokenHash) AND expires_at > \(date)
                """,
                logger: logger
            )
            for try await (hash, user, csrf, created, expires) in rows.decode((String, String, String, Date, Date).self)
            {
                return LoginSession(
                    tokenHash: hash,
                    userID: user,
                    csrfToken: csrf,
                    createdAt: created,
                    expiresAt: expires
                )
            }
            return nil
        }
    }

    public func removeLoginSession(tokenHash: String) async throws(StoreError) {
        try await run("end the login") { client, logger in
            try await client.query("DELETE FROM login_session WHERE token_hash = \(tokenHash)", logger: logger)
        }
    }

    public func add(_ invitation: Invitation) async throws(StoreError) {
        try await run("save the invitation") { client, logger in
            try await client.query(
                """
                INSERT INTO invitation (code_hash, patient_id, expires_at)
                VALUES (\(invitation.codeHash), \(invitation.patientID), \(invitation.expiresAt))
                """,
                logger: logger
            )
        }
    }

    public func invitationIsOpen(codeHash: String, at date: Date) async throws(StoreError) -> Bool {
        try await run("read the invitation") { client, logger in
            let rows = try await client.query(
                """
                SELECT patient_id FROM invitation
                WHERE code_hash = \(codeHash) AND used_at IS NULL AND expires_at > \(date)
                """,
                logger: logger
            )
            for try await _ in rows.decode(String.self) { return true }
            return false
        }
    }

    public func redeem(
        codeHash: String,
        login: String,
        passwordHash: String,
        at date: Date
    ) async throws(StoreError) -> User? {
        if try await user(login: login) != nil { throw StoreError("the login \(login) is taken; choose another") }
        let patientID: String? = try await run("use the invitation") { client, logger in
            try await client.withTransaction(logger: logger) { connection in
                // One statement: two instances redeeming the same code at once cannot both succeed.
                let rows = try await connection.query(
                    """
                    UPDATE invitation SET used_at = \(date)
                    WHERE code_hash = \(codeHash) AND used_at IS NULL AND expires_at > \(date) RETURNING patient_id
                    """,
                    logger: logger
                )
                var patient: String?
                for try await id in rows.decode(String.self) { patient = id }
                guard let patient else { return nil }
                try await connection.query(
                    "UPDATE app_user SET login = \(login.lowercased()), password_hash = \(passwordHash) WHERE id = \(patient)",
                    logger: logger
                )
                return patient
            }
        }
        guard let patientID else { return nil }
        return try await user(id: patientID)
    }

    private func users(_ what: String, _ sql: String, _ binds: PostgresBindings) async throws(StoreError) -> [User] {
        try await run(what) { client, logger in
            var users: [User] = []
            let rows = try await client.query(
                PostgresQuery(
                    unsafeSQL: sql.replacingOccurrences(
                        of: "SELECT *",
                        with: "SELECT id, role, name, login, password_hash, therapist_id, created_at"
                    ),
                    binds: binds
                ),
                logger: logger
            )
            for try await (id, role, name, login, hash, therapist, created) in rows.decode(
                (String, String, String, String?, String?, String?, Date).self
            ) {
                users.append(
                    User(
                        id: id,
                        role: try StoreCoding.role(role, userID: id),
                        name: name,
                        login: login,
                        passwordHash: hash,
                        therapistID: therapist,
                        createdAt: created
                    )
                )
            }
            return users
        }
    }
}
