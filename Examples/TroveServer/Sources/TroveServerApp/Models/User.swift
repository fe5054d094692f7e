import Foundation

/// A user of the service: the item both stores keep, and the JSON the routes read and write.
///
/// Trove reads the annotations (comments: they cost nothing at run time); its coder, the secondary
/// index on `city` and the typed query `User.query(tx).filter(.city("Paris"))` are in
/// `Generated/Models_User+Trove.swift`, committed and checked by `swift package trove-check`.
/// `Codable` is for the JSON of the HTTP API and for GRDB's records: Trove's coder does not use it.
// @persistable(collection: "users")
public struct User: Sendable, Equatable, Codable {
    /// The key: assigned by the server on `POST /users`, part of the path afterwards.
    // @key
    public var id: String
    /// The user's display name.
    public var name: String
    /// The user's email address (not unique: the service does not check it).
    public var email: String
    /// The city: `GET /users?city=…` lists the users of one city through the index on this field.
    // @indexed
    public var city: String
    /// The user's age in years.
    public var age: Int

    /// A user with every field given.
    public init(id: String, name: String, email: String, city: String, age: Int) {
        self.id = id
        self.name = name
        self.email = email
        self.city = city
        self.age = age
    }

    /// The user `input` describes, under the key `id`.
    public init(id: String, _ input: UserInput) {
        self.init(id: id, name: input.name, email: input.email, city: input.city, age: input.age)
    }
}

/// The body of `POST /users` and `PUT /users/:id`: a user without its key, which the path or
/// the server gives.
public struct UserInput: Sendable, Equatable, Codable {
    /// The user's display name.
    public var name: String
    /// The user's email address.
    public var email: String
    /// The user's city.
    public var city: String
    /// The user's age in years.
    public var age: Int

    /// An input with every field given.
    public init(name: String, email: String, city: String, age: Int) {
        self.name = name
        self.email = email
        self.city = city
        self.age = age
    }
}
