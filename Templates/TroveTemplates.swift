/// The templates of every file trove-gen writes, compiled into the tool as bytes.
///
/// The `.mustache` files beside this one are the one source of truth. SwiftPM embeds them
/// (`.embedInCode` resources, exposed as `PackageResources`), so the tool never looks for a
/// resource bundle at run time, and editing a template rebuilds the tool, which regenerates.
package enum TroveTemplates {
    /// Every template, by name (the file name without `.mustache`).
    package static let all: [String: String] = [
        "Header": String(decoding: PackageResources.Header_mustache, as: UTF8.self),
        "File": String(decoding: PackageResources.File_mustache, as: UTF8.self),
        "Conformances": String(decoding: PackageResources.Conformances_mustache, as: UTF8.self),
        "Persistable": String(decoding: PackageResources.Persistable_mustache, as: UTF8.self),
        "Message": String(decoding: PackageResources.Message_mustache, as: UTF8.self),
        "EnumMessage": String(decoding: PackageResources.EnumMessage_mustache, as: UTF8.self),
        "SecondaryIndex": String(decoding: PackageResources.SecondaryIndex_mustache, as: UTF8.self),
        "FullTextSearch": String(decoding: PackageResources.FullTextSearch_mustache, as: UTF8.self),
        "Relationships": String(decoding: PackageResources.Relationships_mustache, as: UTF8.self),
        "DatabaseExtensions": String(decoding: PackageResources.DatabaseExtensions_mustache, as: UTF8.self),
        "Schema": String(decoding: PackageResources.Schema_mustache, as: UTF8.self),
    ]
}
