/// How a ``FullTextSearch`` splits text into tokens: the FTS5 tokenizer of its table. Items and
/// queries go through the same tokenizer.
public enum FullTextTokenizer: Sendable, Hashable {
    /// FTS5's `unicode61`: tokens are runs of Unicode letters and digits, folded to lower case;
    /// everything else separates them. With `removeDiacritics` 1 or 2 (the default), accents are
    /// removed too, so `cafe` finds `Café` (2 also handles the combining forms that 1 misses;
    /// 0 keeps them). Text without separators between words (Chinese, Japanese) is one token
    /// per run: use ``trigram`` for it.
    case unicode61(removeDiacritics: Int = 2)
    /// FTS5's `porter` stemmer over `unicode61` (diacritics removed): English words are reduced
    /// to their stem, so `running` finds `runs` and `run`.
    case porter
    /// FTS5's `trigram`: every run of three characters is a token, so any substring of three
    /// characters or more is found, in any script (`京都市` in `東京都市`), case-insensitively.
    /// A query word shorter than three characters matches nothing; accents are not folded.
    case trigram

    /// The `tokenize` argument of the FTS5 table.
    var sql: String {
        switch self {
        case .unicode61(let removeDiacritics): "unicode61 remove_diacritics \(removeDiacritics)"
        case .porter: "porter unicode61 remove_diacritics 2"
        case .trigram: "trigram"
        }
    }
}
