// One table of field names and their numbers, compiled into the tests of the runtime
// (TroveTests, this file) and of the generator (TroveGeneratorTests, through a symlink), so that
// `Trove.FieldNumber.of(_:)` and the generator's copy that writes the literals of generated code
// are both pinned to the same values: a change to either one fails its target's tests.
//
// The numbers are the FNV-1a 32-bit hash of the name's UTF-8 bytes, shifted right by 3 bits,
// computed outside Swift; "", "a" and "foobar" are FNV-1a's published test vectors, and the
// names of the showcase fixture carry the literals committed in its `Expected/` files (for
// example `0x06E7_0D5C) // id`). They are part of the stored format: they never change.

/// Field names and the numbers every stored item and every generated coder uses for them.
let knownFieldNumbers: [(name: String, number: UInt32)] = [
    ("", 0x1023_93B8),
    ("a", 0x1C81_8525),
    ("foobar", 0x17F3_9F2D),
    ("café", 0x1505_6A09),
    ("id", 0x06E7_0D5C),
    ("name", 0x11A7_37BC),
    ("email", 0x1150_EA78),
    ("userID", 0x063F_3347),
    ("default", 0x1267_6B7B),
    ("born", 0x1890_F85F),
    ("isbn", 0x170F_EC9C),
    ("title", 0x130C_B6A1),
    ("author", 0x09EF_574A),
    ("publicationYear", 0x0AD6_01B6),
    ("year", 0x15CF_E9A3),
    ("circle", 0x0504_2E11),
    ("radius", 0x01B7_4996),
    ("rectangle", 0x1E4E_0091),
    ("polygon", 0x00A3_9711),
    ("points", 0x1792_ACF8),
    ("label", 0x1ED2_E2FF),
    ("_0", 0x13E1_7DDF),
    ("_1", 0x1401_7E11),
]
